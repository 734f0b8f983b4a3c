/**
 * The agent's work tree as a tree object in the shadow repository: the shadow's own index,
 * kept between snapshots so unchanged files are not hashed again, brought up to date with
 * every tracked and untracked file that the project's ignore rules do not exclude, deletions
 * included. Bash's changes are caught as well as the agent's edits, since this reads the tree.
 */
import type { GitRunner } from "../git/git.ts";
import { gitComplaint } from "../git/git.ts";
import { type ShadowRepository, syncExcludes } from "./shadow-repository.ts";

/** A snapshot of a large tree must not hold a command for long. */
const SNAPSHOT_TIMEOUT_MS = 60_000;

export async function snapshotTree(shadow: ShadowRepository): Promise<string> {
  syncExcludes(shadow);
  const options = { timeoutMs: SNAPSHOT_TIMEOUT_MS };
  // --ignore-errors: a file that vanishes or cannot be read mid-snapshot is left out, not fatal.
  const added = await shadow.run(["add", "--all", "--ignore-errors", "--", "."], options);
  if (!added.ok && added.code !== 1) throw new Error(`git add failed: ${gitComplaint(added)}`);
  const tree = await shadow.run(["write-tree"], options);
  if (!tree.ok) throw new Error(`git write-tree failed: ${gitComplaint(tree)}`);
  return tree.stdout.trim();
}

/** The paths that differ between two trees (added, changed, deleted; no rename detection). */
export async function changedPaths(run: GitRunner, from: string, to: string): Promise<string[]> {
  if (from === to) return [];
  const diff = await run(["diff-tree", "-r", "-z", "--no-renames", "--name-only", from, to], {
    maxStdoutBytes: 64 * 1024 * 1024,
  });
  if (!diff.ok) throw new Error(`git diff-tree failed: ${gitComplaint(diff)}`);
  return diff.stdout.split("\0").filter((path) => path !== "");
}
