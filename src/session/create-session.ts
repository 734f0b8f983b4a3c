/** Starts a new, empty session: `$SHARD_HOME/sessions/<ses_…>/session.jsonl` holding only its header. */
import { mkdirSync, openSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { SessionStore } from "../contracts/session-store.ts";
import { atomicWriteFileSync } from "../support/atomic-write.ts";
import type { SessionHeader } from "../types/session-entries.ts";
import { newSessionId } from "./ids.ts";
import { JsonlSessionStore } from "./jsonl-session-store.ts";
import { LOCK_FILE, sessionFilePath } from "./paths.ts";
import { acquireSessionLock } from "./session-lock.ts";

export interface CreateSessionOptions {
  home: string;
  /** The project directory the session belongs to (stored resolved). */
  cwd: string;
  /** fsync after every append (survives power loss; slower). Default false. */
  fsync?: boolean;
  /** The mode and model the session starts with, recorded in its header for resume. */
  mode?: string;
  model?: string;
}

/** Throws only on IO failure (the new directory cannot be written). */
export function createSession(options: CreateSessionOptions): SessionStore {
  const header: SessionHeader = {
    type: "session",
    version: 1,
    session_id: newSessionId(),
    cwd: resolve(options.cwd),
    created_at: Date.now(),
  };
  if (options.mode !== undefined) header.mode = options.mode;
  if (options.model !== undefined) header.model = options.model;
  const path = sessionFilePath(options.home, header.session_id);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const locked = acquireSessionLock(join(dirname(path), LOCK_FILE));
  if (!locked.ok) throw new Error(locked.error.message);
  try {
    // The header is written atomically, so a session file never starts with a torn header.
    const headerLine = Buffer.from(`${JSON.stringify(header)}\n`);
    atomicWriteFileSync(path, headerLine, 0o600);
    const fd = openSync(path, "a", 0o600);
    return new JsonlSessionStore({
      path,
      header,
      entries: [],
      fd,
      size: headerLine.length,
      lock: locked.lock,
      fsync: options.fsync ?? false,
    });
  } catch (err) {
    locked.lock.release();
    throw err;
  }
}
