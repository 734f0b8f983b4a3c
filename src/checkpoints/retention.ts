/**
 * Bounded cost: at most `maxCheckpoints` checkpoints and about `maxBytes` of shadow objects
 * (what the shadow holds itself; the user's object store, an alternate, is not counted and never
 * pruned). The oldest go first and the newest is always kept. Dropped checkpoints lose their
 * refs, then a repack and a prune in the shadow repository, and only there, free their objects.
 */
import type { GitRunner } from "../git/git.ts";
import { gitComplaint } from "../git/git.ts";
import { dropCheckpoint, type LoggedCheckpoint } from "./checkpoint-log.ts";

export interface Retention {
  maxCheckpoints: number;
  maxBytes: number;
}

/** Loose objects take a disk block each: past this many they go into a pack. */
const MAX_LOOSE_OBJECTS = 1000;

export const DEFAULT_RETENTION: Retention = { maxCheckpoints: 100, maxBytes: 500 * 1024 * 1024 };

/** Bytes of objects the shadow repository holds itself, loose and packed. */
export async function shadowBytes(run: GitRunner): Promise<number> {
  return (await countObjects(run)).bytes;
}

async function countObjects(run: GitRunner): Promise<{ count: number; bytes: number }> {
  const counted = await run(["count-objects", "-v"]);
  if (!counted.ok) throw new Error(`git count-objects failed: ${gitComplaint(counted)}`);
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, "m").exec(counted.stdout)?.[1] ?? 0);
  return { count: field("count"), bytes: (field("size") + field("size-pack")) * 1024 };
}

/** Loose objects into one more pack (cheap: nothing already packed is read again). */
async function packLoose(run: GitRunner): Promise<void> {
  const packed = await run(["repack", "-d", "-l", "-q"], { timeoutMs: 120_000 });
  if (!packed.ok) throw new Error(`git repack failed: ${gitComplaint(packed)}`);
}

/** `newestFirst` is the current list; returns the checkpoints that remain. */
export async function enforceRetention(
  run: GitRunner,
  newestFirst: LoggedCheckpoint[],
  retention: Retention,
): Promise<LoggedCheckpoint[]> {
  const kept = newestFirst.slice(0, Math.max(1, retention.maxCheckpoints));
  const over = newestFirst.slice(kept.length);
  for (const checkpoint of over) await dropCheckpoint(run, checkpoint);
  if (over.length > 0) await collectGarbage(run);
  else if ((await countObjects(run)).count > MAX_LOOSE_OBJECTS) await packLoose(run);
  while (kept.length > 1 && (await shadowBytes(run)) > retention.maxBytes) {
    const oldest = kept.pop();
    if (oldest === undefined) break;
    await dropCheckpoint(run, oldest);
    await collectGarbage(run);
  }
  return kept;
}

async function collectGarbage(run: GitRunner): Promise<void> {
  // -l: objects the alternate (the user's store) has stay there, never copied into the pack.
  const packed = await run(["repack", "-a", "-d", "-l", "-q"], { timeoutMs: 120_000 });
  if (!packed.ok) throw new Error(`git repack failed: ${gitComplaint(packed)}`);
  const pruned = await run(["prune", "--expire=now"], { timeoutMs: 120_000 });
  if (!pruned.ok) throw new Error(`git prune failed: ${gitComplaint(pruned)}`);
}
