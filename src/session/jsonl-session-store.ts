/**
 * The SessionStore over one append-only session.jsonl. Each append is one synchronous
 * write(2) of a whole line on an O_APPEND fd, done before `append` returns: the line is in
 * the kernel and survives a kill -9 of this process. With `fsync: true` each append also
 * fsyncs, so it survives power loss and kernel crashes too, at the cost of a disk flush
 * per entry (milliseconds on most disks instead of microseconds; see bench/session-append.ts).
 */
import { closeSync, fsyncSync, ftruncateSync, writeSync } from "node:fs";
import type { NewEntry, SessionState, SessionStore } from "../contracts/session-store.ts";
import type { LiveWindow } from "../types/agent-events.ts";
import type { SessionEntry, SessionHeader } from "../types/session-entries.ts";
import { buildEntry } from "./entry-record.ts";
import { newEntryId } from "./ids.ts";
import { liveWindowOf, windowEntriesAt } from "./live-window.ts";
import type { HeldLock } from "./session-lock.ts";
import { applyToState, initialState } from "./session-state.ts";

export interface StoreInit {
  path: string;
  header: SessionHeader;
  entries: SessionEntry[];
  /** O_APPEND fd positioned at the end of a file of `size` bytes. */
  fd: number;
  size: number;
  lock: HeldLock;
  fsync: boolean;
}

function writeAll(fd: number, data: Uint8Array): void {
  let done = 0;
  while (done < data.length) done += writeSync(fd, data, done, data.length - done);
}

export class JsonlSessionStore implements SessionStore {
  readonly sessionId: string;
  readonly path: string;
  readonly header: SessionHeader;
  readonly #entries: SessionEntry[];
  readonly #fd: number;
  readonly #lock: HeldLock;
  readonly #fsync: boolean;
  #size: number;
  readonly #state: SessionState;
  #closed = false;

  constructor(init: StoreInit) {
    this.sessionId = init.header.session_id;
    this.path = init.path;
    this.header = init.header;
    this.#entries = init.entries;
    this.#fd = init.fd;
    this.#size = init.size;
    this.#lock = init.lock;
    this.#fsync = init.fsync;
    this.#state = initialState(init.header);
    for (const entry of init.entries) applyToState(this.#state, entry);
  }

  /** Writes the entry's line before returning. Throws on IO failure (e.g. disk full); the file is left as before. */
  append(entry: NewEntry): SessionEntry {
    if (this.#closed) throw new Error(`session ${this.sessionId} is closed`);
    const id = newEntryId();
    const parent_id = this.headId();
    const ts = Date.now();
    const full = buildEntry(entry, id, parent_id, ts);
    const line = Buffer.from(`${JSON.stringify(full)}\n`);
    try {
      writeAll(this.#fd, line);
      if (this.#fsync) fsyncSync(this.#fd);
    } catch (err) {
      // Never leave half a line behind: later appends would turn it into a corrupt middle line.
      try {
        ftruncateSync(this.#fd, this.#size);
      } catch {
        // The torn tail is truncated on the next open instead.
      }
      throw err;
    }
    this.#size += line.length;
    this.#entries.push(full);
    applyToState(this.#state, full);
    return full;
  }

  entries(): readonly SessionEntry[] {
    return this.#entries;
  }

  headId(): string | null {
    return this.#entries.at(-1)?.id ?? null;
  }

  liveWindow(): LiveWindow {
    return liveWindowOf(windowEntriesAt(this.#entries));
  }

  state(): SessionState {
    return { ...this.#state, reasoning: { ...this.#state.reasoning } };
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      closeSync(this.#fd);
    } finally {
      this.#lock.release();
    }
  }
}
