/**
 * Read-only access to a session file another process may be writing: no lock, no
 * truncation. A torn final line is ignored (it may be a write in progress).
 */

import { describeError } from "../support/describe-error.ts";
import type { SessionEntry, SessionHeader } from "../types/session-entries.ts";
import { parseSessionFile } from "./session-file-parser.ts";

export type ReadSessionResult =
  | { ok: true; header: SessionHeader; entries: SessionEntry[] }
  | { ok: false; error: { code: "NOT_FOUND" | "SESSION_CORRUPT"; message: string } };

export function readSessionFile(path: string): ReadSessionResult {
  try {
    const parsed = parseSessionFile(path);
    if (!parsed.ok) return parsed;
    return { ok: true, header: parsed.session.header, entries: parsed.session.entries };
  } catch (err) {
    return {
      ok: false,
      error: { code: "NOT_FOUND", message: `cannot read ${path}: ${describeError(err)}` },
    };
  }
}
