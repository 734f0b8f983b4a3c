/**
 * Resolves an opaque session id for adoption (docs/protocol.md §10.2 `agent.create` with
 * `session_id`, `session.activate`): the daemon finds the file itself — a client never names a
 * path — and checks it can be restored before any manifest points at it.
 */
import { isSessionId } from "../../session/ids.ts";
import { findSessionFile } from "../../session/session-directory.ts";
import { parseSessionFile } from "../../session/session-file-parser.ts";
import { type Failure, failure } from "../../wire/errors.ts";

export function lookUpSession(home: string, sessionId: string): { ok: true; cwd: string } | Failure {
  const path = isSessionId(sessionId) ? findSessionFile(home, sessionId) : null;
  if (!path) return failure("NOT_FOUND", `no session ${sessionId}; session.list shows the sessions`);
  const parsed = parseSessionFile(path);
  if (!parsed.ok)
    return failure("SESSION_CORRUPT", `session ${sessionId} cannot be restored: ${parsed.error.message}`);
  return { ok: true, cwd: parsed.session.header.cwd };
}
