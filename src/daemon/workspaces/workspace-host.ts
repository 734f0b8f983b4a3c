/**
 * Where a workspace's git and worktree live: this machine (git as the daemon always ran it,
 * worktrees under `$SHARD_HOME/worktrees`) or a placement (docs/placements.md, workspaces and
 * the Changes view), where each step runs through `shard placement git` there, its repository
 * config distrusted, its worktrees under that side's `$SHARD_HOME/worktrees`. The workspace
 * code asks only these questions, so the intents, checks and recovery are the same for both.
 */
import { mkdirSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type GitOptions, type GitResult, git } from "../../git/git.ts";
import type { NamedPlacement } from "../../placements/placement-config.ts";
import {
  type Found,
  type PlacementGitContext,
  placementGit,
  placementRealpath,
  placementRemoveBelow,
  placementWorktreesDir,
} from "../../placements/placement-git.ts";
import { isBelow } from "../../support/below-dir.ts";

export interface WorkspaceHost {
  git(cwd: string, args: string[], options?: GitOptions): Promise<GitResult>;
  /** The canonical path; undefined when nothing is there (or the placement cannot say). */
  realpath(path: string): Promise<string | undefined>;
  /** Where this host's worktrees go; on a placement, asking is also how the link is checked. */
  worktreesDir(): Promise<Found<string>>;
  /** Makes the worktrees folder before the first worktree goes in (private: 0700). */
  makeWorktreesDir(dir: string): Promise<void>;
  /** Whether `path` is below `dir`, symlinks resolved. */
  below(path: string, dir: string): Promise<boolean>;
  /** Removes `path` (recursively) only while it is below `dir`. */
  removeBelow(path: string, dir: string): Promise<void>;
}

export function localWorkspaceHost(home: string): WorkspaceHost {
  const dir = join(home, "worktrees");
  return {
    git: (cwd, args, options) => git(cwd, args, options),
    realpath: async (path) => {
      try {
        return realpathSync(path);
      } catch {
        return undefined;
      }
    },
    worktreesDir: async () => ({ ok: true, value: dir }),
    makeWorktreesDir: async (path) => {
      mkdirSync(path, { recursive: true, mode: 0o700 });
    },
    below: async (path, within) => isBelow(path, within),
    removeBelow: async (path, within) => {
      if (isBelow(path, within)) rmSync(path, { recursive: true, force: true });
    },
  };
}

export function placementWorkspaceHost(
  placement: NamedPlacement,
  context: PlacementGitContext,
): WorkspaceHost {
  const realpath = async (path: string) => {
    const found = await placementRealpath(placement, context, path);
    return found.ok ? found.value : undefined;
  };
  return {
    git: (cwd, args, options) => placementGit(placement, context, cwd)(args, options),
    realpath,
    // The far side makes it when asked where it is.
    worktreesDir: () => placementWorktreesDir(placement, context),
    makeWorktreesDir: async () => {},
    below: async (path, within) => {
      const [real, root] = await Promise.all([realpath(path), realpath(within)]);
      return real !== undefined && root !== undefined && real.startsWith(`${root}/`);
    },
    removeBelow: async (path, within) => {
      await placementRemoveBelow(placement, context, path, within);
    },
  };
}
