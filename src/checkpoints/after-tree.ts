/**
 * What a checkpoint's turn left behind: the tree at the turn's end (`settle()`), or for a
 * restore's undo checkpoint the tree the restore wrote. A ref per checkpoint names that tree, so
 * the shadow's garbage collection keeps it, and retention drops it with its checkpoint. The diff
 * from a checkpoint to its after-tree is what that turn (or restore) changed, and nothing the
 * person changed between turns.
 */
import type { GitRunner } from "../git/git.ts";
import { gitComplaint } from "../git/git.ts";

const PREFIX = "refs/shard/after/";

const refOf = (checkpointId: string) => `${PREFIX}${checkpointId}`;

export async function afterTree(run: GitRunner, checkpointId: string): Promise<string | undefined> {
  const found = await run(["rev-parse", "--verify", "--quiet", `${refOf(checkpointId)}^{tree}`]);
  return found.ok ? found.stdout.trim() : undefined;
}

export async function setAfterTree(run: GitRunner, checkpointId: string, tree: string): Promise<void> {
  const set = await run(["update-ref", refOf(checkpointId), tree]);
  if (!set.ok) throw new Error(`git update-ref failed: ${gitComplaint(set)}`);
}

/** Deleting a ref that is not there succeeds: a checkpoint whose turn never ended has none. */
export async function dropAfterTree(run: GitRunner, checkpointId: string): Promise<void> {
  const dropped = await run(["update-ref", "-d", refOf(checkpointId)]);
  if (!dropped.ok) throw new Error(`git update-ref -d failed: ${gitComplaint(dropped)}`);
}
