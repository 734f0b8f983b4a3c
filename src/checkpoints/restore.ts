/**
 * Putting a work tree back as it was at a checkpoint. The shadow index holds the current tree
 * (a snapshot was just taken), so `read-tree --reset -u` to the checkpoint's tree rewrites the
 * files that differ, deletes those the checkpoint did not have and recreates those it had;
 * ignored files are in no index and are never touched.
 *
 * A file is a conflict when its content now differs both from the checkpoint being restored
 * and from the last state the engine knows of (the newest checkpoint, the tree as the agent
 * left it at the end of its turn, or what the last restore wrote): someone changed it outside the checkpoints, and overwriting it would lose that work.
 */
import type { GitRunner } from "../git/git.ts";
import { gitComplaint } from "../git/git.ts";
import { changedPaths } from "./tree-snapshot.ts";

/** The tree the engine last left the work tree in (a ref may name a tree). */
export const KNOWN_TREE_REF = "refs/shard/known-tree";

export async function knownTree(run: GitRunner): Promise<string | undefined> {
  const known = await run(["rev-parse", "--verify", "--quiet", `${KNOWN_TREE_REF}^{tree}`]);
  return known.ok ? known.stdout.trim() : undefined;
}

export async function setKnownTree(run: GitRunner, tree: string): Promise<void> {
  const set = await run(["update-ref", KNOWN_TREE_REF, tree]);
  if (!set.ok) throw new Error(`git update-ref failed: ${gitComplaint(set)}`);
}

/** Paths changed outside the checkpoints that restoring `target` would overwrite. */
export async function outsideChanges(
  run: GitRunner,
  current: string,
  target: string,
  known: string,
): Promise<string[]> {
  const sinceKnown = await changedPaths(run, known, current);
  if (sinceKnown.length === 0) return [];
  const differFromTarget = new Set(await changedPaths(run, target, current));
  return sinceKnown.filter((path) => differFromTarget.has(path));
}

/** Makes the work tree `target`; the shadow index must hold the work tree's current state. */
export async function checkOutTree(run: GitRunner, target: string): Promise<void> {
  const written = await run(["read-tree", "--reset", "-u", target], { timeoutMs: 120_000 });
  if (!written.ok) throw new Error(`git read-tree failed: ${gitComplaint(written)}`);
}
