/**
 * One attached agent's snapshot as this page holds it, kept exactly right across reconnects:
 * a `sync` replaces everything; until the first `sync` of the current attachment every event is
 * stale and dropped (it may belong to the old connection or race the re-attach); afterwards the
 * daemon's per-agent `seq` must grow by one — a duplicate is dropped, a gap means something was
 * lost, and the feed waits for a fresh `sync` (the caller re-attaches).
 */
import { type AgentSnapshot, emptySnapshot } from "../../../src/snapshot/agent-snapshot.ts";
import { applyEvent } from "../../../src/snapshot/apply-event.ts";
import type { AgentEvent } from "../../../src/types/catalog.ts";

export type FeedResult = "applied" | "stale" | "duplicate" | "gap";

export class AgentFeed {
  private current: AgentSnapshot | undefined;
  private synced = false;

  /** The newest snapshot (also while it is stale, so the page keeps showing the last state). */
  get snapshot(): AgentSnapshot | undefined {
    return this.current;
  }

  /** Whether a `sync` of the current attachment has been applied. */
  get live(): boolean {
    return this.synced;
  }

  /** The connection dropped or a re-attach was sent: whatever arrives before its `sync` is stale. */
  awaitSync(): void {
    this.synced = false;
  }

  receive(event: AgentEvent): FeedResult {
    if (event.type === "sync") {
      this.current = applyEvent(this.current ?? emptySnapshot(), event);
      this.synced = true;
      return "applied";
    }
    if (!this.synced || this.current === undefined) return "stale";
    if (event.seq !== undefined) {
      const last = this.current.last_seq;
      if (event.seq <= last) return "duplicate";
      if (event.seq > last + 1) {
        this.synced = false;
        return "gap";
      }
    }
    this.current = applyEvent(this.current, event);
    return "applied";
  }
}
