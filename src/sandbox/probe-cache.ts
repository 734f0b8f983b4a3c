/**
 * A bubblewrap that worked, remembered for this boot (`$SHARD_HOME/cache/bubblewrap.json`): the
 * probe runs `bwrap … -- true` (./bubblewrap-probe.ts), ~10 ms of every agent's start, and its
 * answer rarely changes. The memory holds only for the same binary (path, inode, size, mtime),
 * the same user and the same boot; a failure is never remembered, so installing bubblewrap or
 * allowing its namespaces is seen at the next start. Should the kernel stop allowing them
 * mid-boot, a confined command fails with bubblewrap's own error: loudly, never unconfined.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { atomicWriteFileSync } from "../support/atomic-write.ts";
import { currentBootId } from "../support/process-start.ts";

/** What must match for a remembered answer to hold. */
interface ProbedBinary {
  path: string;
  ino: number;
  size: number;
  mtime_ms: number;
  uid: number;
  boot_id: string;
}

/** Far above an honest record: a larger file is not read. */
const MAX_RECORD_BYTES = 4096;

export function probeCachePath(home: string): string {
  return join(home, "cache", "bubblewrap.json");
}

/** True when bubblewrap at `path` worked for this user in this boot, and is the same file still. */
export function rememberedWorking(home: string, path: string): boolean {
  const now = identity(path);
  if (now === undefined) return false;
  let value: unknown;
  try {
    const file = probeCachePath(home);
    if (statSync(file).size > MAX_RECORD_BYTES) return false;
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return false;
  }
  // Written by rememberWorking in this key order: anything but the same record, another key or
  // value or type included, is not a match (probe again).
  return JSON.stringify(value) === JSON.stringify(now);
}

/** Remembers that bubblewrap at `path` worked; a record that cannot be written is only not kept. */
export function rememberWorking(home: string, path: string): void {
  const now = identity(path);
  if (now === undefined) return;
  try {
    atomicWriteFileSync(probeCachePath(home), `${JSON.stringify(now)}\n`);
  } catch {
    // The next start probes again.
  }
}

/** What must match for a remembered answer to hold; undefined where it cannot be known. */
function identity(path: string): ProbedBinary | undefined {
  const bootId = currentBootId();
  const uid = process.getuid?.();
  if (bootId === undefined || uid === undefined) return undefined;
  try {
    const stat = statSync(path);
    return { path, ino: stat.ino, size: stat.size, mtime_ms: stat.mtimeMs, uid, boot_id: bootId };
  } catch {
    return undefined;
  }
}
