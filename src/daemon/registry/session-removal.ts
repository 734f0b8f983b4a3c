/**
 * The session files an `agent.delete` with `session: true` removes: the directory of the agent's
 * session, its forks (nested under it) included, and the session's checkpoints. Found by id (a
 * client never names a path).
 */
import { rmSync } from "node:fs";
import { dirname, sep } from "node:path";
import { checkpointsDir } from "../../checkpoints/checkpoints-dir.ts";
import { isSessionId } from "../../session/ids.ts";
import { findSessionFile } from "../../session/session-directory.ts";

/** The directory holding session `sessionId` and its forks, or undefined when there is none. */
export function sessionDirectory(home: string, sessionId: string): string | undefined {
  const file = isSessionId(sessionId) ? findSessionFile(home, sessionId) : null;
  return file === null ? undefined : dirname(file);
}

/** Whether `sessionId`'s file lies inside `dir` (the session itself or one of its forks). */
export function sessionInside(home: string, sessionId: string, dir: string): boolean {
  const other = sessionDirectory(home, sessionId);
  return other !== undefined && (other === dir || other.startsWith(`${dir}${sep}`));
}

/** Idempotent: a crash between the intent and the end runs it again. */
export function removeSessionDirectory(home: string, sessionId: string): void {
  const dir = sessionDirectory(home, sessionId);
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  // Its checkpoints (docs/checkpoints.md) go with it; a fork's own checkpoints are keyed by the fork's id.
  if (isSessionId(sessionId)) rmSync(checkpointsDir(home, sessionId), { recursive: true, force: true });
}
