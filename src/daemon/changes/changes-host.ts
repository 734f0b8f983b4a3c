/**
 * Where an agent's Changes view runs git: on this machine for a local agent, on its placement
 * for a remote one (docs/placements.md, workspaces and the Changes view). The rest of the view
 * (baseline.ts, agent-changes.ts) asks only these two questions, so both places answer alike.
 */
import type { GitRunner } from "../../git/git.ts";
import { repositoryAt } from "../../git/repository-at.ts";
import type { NamedPlacement } from "../../placements/placement-config.ts";
import { type PlacementGitContext, placementGit, placementSnapshot } from "../../placements/placement-git.ts";
import { type Snapshot, snapshotWorkTree } from "./work-tree-snapshot.ts";

export interface ChangesHost {
  /** A runner at the top of the repository `cwd` is in (its config distrusted), if any. */
  repositoryRunner(cwd: string): Promise<GitRunner | undefined>;
  /** The working tree at `cwd` as a tree object in its repository. */
  snapshot(cwd: string): Promise<Snapshot>;
}

/** `scratch`: a daemon-private folder for temporary indexes. */
export function localChangesHost(scratch: string): ChangesHost {
  return {
    repositoryRunner: async (cwd) => (await repositoryAt(cwd))?.run,
    snapshot: (cwd) => snapshotWorkTree(cwd, scratch),
  };
}

export function placementChangesHost(placement: NamedPlacement, context: PlacementGitContext): ChangesHost {
  const repositoryRunner = async (cwd: string): Promise<GitRunner | undefined> => {
    const found = await placementGit(
      placement,
      context,
      cwd,
    )(["rev-parse", "--path-format=absolute", "--show-toplevel"]);
    const root = found.stdout.trim();
    return found.ok && root.startsWith("/") ? placementGit(placement, context, root) : undefined;
  };
  return {
    repositoryRunner,
    snapshot: async (cwd) => {
      const answer = await placementSnapshot(placement, context, cwd);
      return answer.ok ? { ...answer, run: placementGit(placement, context, answer.root) } : answer;
    },
  };
}
