/**
 * Copying a session file between the daemon and a placement (docs/placements.md, sessions):
 * `shard session export <id>` prints it, `shard session import <id>` takes it on stdin. An
 * import never loses a line the placement has: it replaces the file only when the file is
 * missing or a strict prefix of the copy (the copy is newer), and keeps it otherwise.
 *
 * A session is found by id wherever it lies: a fork (a conversation restore, `session_op
 * fork`) lives under its source's `forks/`, and an agent that continues in a fork names only
 * the fork's id. A fork the placement lost comes back at the top level, where the runtime finds
 * it by the same id.
 */
import { readFileSync } from "node:fs";
import { sessionFilePath } from "../session/paths.ts";
import { findSessionFile } from "../session/session-directory.ts";
import { atomicWriteFileSync } from "../support/atomic-write.ts";
import { isRecord } from "../support/is-record.ts";

/** A session id (`ses_…`, a top-level session's or a fork's): path-safe, never a path. */
export const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export type ImportOutcome = "imported" | "kept" | "same";

/** The file of session `sessionId` (validated with SESSION_ID), a fork's included, or undefined. */
export function sessionFileOf(home: string, sessionId: string): string | undefined {
  return findSessionFile(home, sessionId) ?? undefined;
}

export function importSession(home: string, sessionId: string, copy: Uint8Array): ImportOutcome {
  const path = sessionFileOf(home, sessionId) ?? sessionFilePath(home, sessionId);
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
