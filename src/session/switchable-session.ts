/**
 * The session a runtime writes, which `restore_checkpoint` with `conversation` can replace by a
 * fork while the runtime runs: everything that holds the session (the runtime, compaction, the
 * recall tool) holds this, so one `switchTo` moves them all. The old store is closed.
 */
import type { NewEntry, SessionState, SessionStore } from "../contracts/session-store.ts";
import type { LiveWindow } from "../types/agent-events.ts";
import type { SessionEntry, SessionHeader } from "../types/session-entries.ts";

export class SwitchableSession implements SessionStore {
  constructor(private current: SessionStore) {}

  /** Makes `next` the session; the one it replaces is closed. */
  switchTo(next: SessionStore): void {
    const previous = this.current;
    this.current = next;
    previous.close();
  }

  get sessionId(): string {
    return this.current.sessionId;
  }

  get path(): string {
    return this.current.path;
  }

  get header(): SessionHeader {
    return this.current.header;
  }

  append(entry: NewEntry): SessionEntry {
    return this.current.append(entry);
  }

  entries(): readonly SessionEntry[] {
    return this.current.entries();
  }

  headId(): string | null {
    return this.current.headId();
  }

  liveWindow(): LiveWindow {
    return this.current.liveWindow();
  }

  state(): SessionState {
    return this.current.state();
  }

  close(): void {
    this.current.close();
  }
}
