/**
 * Copying a session file between the daemon and a placement (docs/placements.md, sessions):
 * `shard session export <id>` prints it, `shard session import <id>` takes it on stdin. An
 * import never loses a line the placement has: it replaces the file only when the file is
 * missing or a strict prefix of the copy (the copy is newer), and keeps it otherwise.
 */
import { readFileSync } from "node:fs";
import { sessionFilePath } from "../session/paths.ts";
import { atomicWriteFileSync } from "../support/atomic-write.ts";
import { isRecord } from "../support/is-record.ts";

/** A top-level session id (`ses_…`): path-safe, never a path. */
export const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export type ImportOutcome = "imported" | "kept" | "same";

export function importSession(home: string, sessionId: string, copy: Uint8Array): ImportOutcome {
  const path = sessionFilePath(home, sessionId);
  let current: Buffer | undefined;
  try {
    current = readFileSync(path);
  } catch (err) {
    if (!(isRecord(err) && err.code === "ENOENT")) throw err;
  }
  if (current !== undefined) {
    if (Buffer.compare(current, copy) === 0) return "same";
    const isPrefix =
      current.length < copy.length && Buffer.compare(current, copy.subarray(0, current.length)) === 0;
    if (!isPrefix) return "kept";
  }
  atomicWriteFileSync(path, copy);
  return "imported";
}
