/** Where sessions live under `$SHARD_HOME` (docs/architecture.md §4). */
import { dirname, join } from "node:path";

export const SESSION_FILE = "session.jsonl";
export const LOCK_FILE = "session.lock";
export const FORKS_DIR = "forks";

export function sessionsRoot(home: string): string {
  return join(home, "sessions");
}

export function sessionFilePath(home: string, sessionId: string): string {
  return join(sessionsRoot(home), sessionId, SESSION_FILE);
}

/** A fork lives in `forks/<fork_session_id>/` of its source session's directory. */
export function forkFilePath(sourceSessionFile: string, forkSessionId: string): string {
  return join(dirname(sourceSessionFile), FORKS_DIR, forkSessionId, SESSION_FILE);
}

/** The source session file of a fork stored at `<source dir>/forks/<id>/session.jsonl`. */
export function forkSourceFilePath(forkSessionFile: string): string {
  return join(dirname(dirname(dirname(forkSessionFile))), SESSION_FILE);
}
