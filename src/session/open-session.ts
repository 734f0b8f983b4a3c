/**
 * Opens an existing session for writing: takes the lock, parses the file, truncates a torn
 * final line (reported, never silent) and refuses a corrupt file with SESSION_CORRUPT.
 */
import { closeSync, existsSync, fstatSync, ftruncateSync, openSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { SessionStore } from "../contracts/session-store.ts";
import { isSessionId } from "./ids.ts";
import { JsonlSessionStore } from "./jsonl-session-store.ts";
import { LOCK_FILE } from "./paths.ts";
import { findSessionFile } from "./session-directory.ts";
import { parseSessionFile } from "./session-file-parser.ts";
import { acquireSessionLock } from "./session-lock.ts";
import { logWarning, type WarningSink } from "./session-warning.ts";

export interface OpenSessionOptions {
  home: string;
  /** A session id (`ses_…`, top-level or fork) or a path to a session .jsonl file. */
  idOrPath: string;
  fsync?: boolean;
  onWarning?: WarningSink;
}

export type OpenSessionError = { code: "NOT_FOUND" | "SESSION_CORRUPT" | "CONFLICT"; message: string };
export type OpenSessionResult = { ok: true; store: SessionStore } | { ok: false; error: OpenSessionError };

function locate(home: string, idOrPath: string): { path: string; byId: boolean } | OpenSessionError {
  if (isSessionId(idOrPath)) {
    const path = findSessionFile(home, idOrPath);
    return path ? { path, byId: true } : { code: "NOT_FOUND", message: `no session ${idOrPath}` };
  }
  if (idOrPath.endsWith(".jsonl")) {
    const path = resolve(idOrPath);
    return existsSync(path)
      ? { path, byId: false }
      : { code: "NOT_FOUND", message: `no session file ${path}` };
  }
  return { code: "NOT_FOUND", message: `not a session id or a .jsonl path: ${JSON.stringify(idOrPath)}` };
}

export function openSession(options: OpenSessionOptions): OpenSessionResult {
  const warn = options.onWarning ?? logWarning;
  const found = locate(options.home, options.idOrPath);
  if ("code" in found) return { ok: false, error: found };
  const { path } = found;

  const locked = acquireSessionLock(join(dirname(path), LOCK_FILE));
  if (!locked.ok) return { ok: false, error: locked.error };
  if (locked.tookOverFrom) {
    const o = locked.tookOverFrom;
    const whose = {
      dead: `dead pid ${o.pid} (${o.hostname})`,
      reused: `pid ${o.pid} (${o.hostname}), which has exited; that pid now belongs to an unrelated process`,
      empty: "a writer that died while creating it (the lock file names no valid owner)",
    }[o.reason];
    warn({ kind: "stale_lock_taken_over", message: `${path}: took over the lock of ${whose}` });
  }

  let fd: number | null = null;
  try {
    const parsed = parseSessionFile(path);
    if (!parsed.ok) {
      locked.lock.release();
      return { ok: false, error: parsed.error };
    }
    const { header, entries, tornTail } = parsed.session;
    if (found.byId && header.session_id !== basename(dirname(path))) {
      locked.lock.release();
      const message = `${path} line 1: header session_id ${header.session_id} does not match its directory`;
      return { ok: false, error: { code: "SESSION_CORRUPT", message } };
    }
    fd = openSync(path, "a", 0o600);
    if (tornTail) {
      ftruncateSync(fd, tornTail.offset);
      warn({
        kind: "torn_tail_truncated",
        message: `${path} line ${tornTail.line}: ${tornTail.reason}; truncated ${tornTail.bytes} bytes of an unacknowledged write`,
      });
    }
    const size = fstatSync(fd).size;
    const store = new JsonlSessionStore({
      path,
      header,
      entries,
      fd,
      size,
      lock: locked.lock,
      fsync: options.fsync ?? false,
    });
    return { ok: true, store };
  } catch (err) {
    if (fd !== null) closeSync(fd);
    locked.lock.release();
    throw err;
  }
}
