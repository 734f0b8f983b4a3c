/**
 * The shadow repository of one agent: a git dir of its own (under the caller's directory,
 * later `$SHARD_HOME/checkpoints/<agent>`) whose work tree is the agent's cwd. Every git call
 * names both through GIT_DIR/GIT_WORK_TREE, so the user's `.git` (index, refs, stash, hooks)
 * is never written. Where the cwd is in a git repository, that repository's object store is
 * an alternate: a file git already holds costs the shadow nothing. Its ignore rules are the
 * project's: `.gitignore` files in the tree are read as usual, the user's `info/exclude` is
 * copied into the shadow's at every snapshot, and the global `core.excludesFile` applies.
 * `info/attributes` switches off every conversion (eol, filters, ident), so a restore gives
 * back the bytes a checkpoint read.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { distrustingEnv } from "../git/distrusting-git.ts";
import { type GitOptions, type GitResult, type GitRunner, git, gitComplaint } from "../git/git.ts";
import { repositoryAt } from "../git/repository-at.ts";

/** Who checkpoint commits are by: the user's identity may be unset, and they are not theirs. */
export const IDENTITY = {
  GIT_AUTHOR_NAME: "Shard",
  GIT_AUTHOR_EMAIL: "shard@localhost",
  GIT_COMMITTER_NAME: "Shard",
  GIT_COMMITTER_EMAIL: "shard@localhost",
};

/** Byte-exact snapshots: no eol conversion, no filter, no keyword expansion. */
const ATTRIBUTES = "* -text -filter -ident -working-tree-encoding\n";

const CONFIG: [string, string][] = [
  ["core.bare", "false"],
  ["core.autocrlf", "false"],
  ["core.logAllRefUpdates", "false"],
  ["gc.auto", "0"],
  ["gc.autoDetach", "false"],
];

export interface ShadowRepository {
  /** git on the shadow repository, with the agent's cwd as its work tree. */
  run: GitRunner;
  gitDir: string;
  workTree: string;
  /** The user's `info/exclude`, when the cwd is in a git repository. */
  userExclude?: string;
}

export type Opened = { ok: true; shadow: ShadowRepository } | { ok: false; message: string };

/** Opens (creating on first use) the shadow repository in `gitDir` for the work tree `cwd`. */
export async function openShadowRepository(gitDir: string, cwd: string): Promise<Opened> {
  const workTree = resolve(cwd);
  if (!existsSync(workTree))
    return { ok: false, message: `the working directory ${workTree} does not exist` };
  const user = await repositoryAt(workTree);
  const distrust = await distrustingEnv(workTree);
  const env = { ...distrust, GIT_DIR: gitDir, GIT_WORK_TREE: workTree };
  const run: GitRunner = (args: string[], options?: GitOptions): Promise<GitResult> =>
    git(workTree, args, { ...options, env: { ...options?.env, ...env } });
  if (!existsSync(join(gitDir, "HEAD"))) {
    mkdirSync(gitDir, { recursive: true, mode: 0o700 });
    // No template: no sample hooks, no description, nothing the shadow does not use.
    const made = await git(workTree, ["init", "-q", "--bare", "--template=", gitDir], { env: distrust });
    if (!made.ok) return { ok: false, message: `git init failed: ${gitComplaint(made)}` };
    for (const [key, value] of CONFIG) {
      const set = await git(workTree, ["config", key, value], { env: { ...distrust, GIT_DIR: gitDir } });
      if (!set.ok) return { ok: false, message: `git config failed: ${gitComplaint(set)}` };
    }
  }
  mkdirSync(join(gitDir, "info"), { recursive: true });
  writeFileSync(join(gitDir, "info", "attributes"), ATTRIBUTES);
  mkdirSync(join(gitDir, "objects", "info"), { recursive: true });
  const alternates = join(gitDir, "objects", "info", "alternates");
  let userExclude: string | undefined;
  if (user !== undefined) {
    const paths = await user.run([
      "rev-parse",
      "--path-format=absolute",
      "--git-path",
      "objects",
      "--git-path",
      "info/exclude",
    ]);
    const [objects, exclude] = paths.stdout.split("\n");
    if (paths.ok && objects !== undefined && isAbsolute(objects) && existsSync(objects)) {
      writeFileSync(alternates, `${objects}\n`);
    }
    if (paths.ok && exclude !== undefined && isAbsolute(exclude)) userExclude = exclude;
  } else if (existsSync(alternates)) {
    writeFileSync(alternates, "");
  }
  return {
    ok: true,
    shadow: { run, gitDir, workTree, ...(userExclude !== undefined ? { userExclude } : {}) },
  };
}

/** The project's own exclusions, as they are now, become the shadow's. */
export function syncExcludes(shadow: ShadowRepository): void {
  let rules = "";
  if (shadow.userExclude !== undefined && existsSync(shadow.userExclude)) {
    try {
      rules = readFileSync(shadow.userExclude, "utf8");
    } catch {
      // Unreadable: the tree's .gitignore files still apply.
    }
  }
  writeFileSync(join(shadow.gitDir, "info", "exclude"), rules);
}
