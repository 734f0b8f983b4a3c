/**
 * One attached agent's snapshot as a client holds it, kept exactly right across reconnects and
 * lost events; the web and the SDK both keep theirs with it.
 *
 * - A `sync` replaces everything (`applyEvent` builds the snapshot from it).
 * - Before the first `sync` of an attachment every event is dropped as stale: the daemon sends
 *   an attachment "sync first, then every buffered event exactly once" (docs/protocol-additions.md
 *   §8.1), so whatever arrives before that sync belongs to an older attachment or races
 *   the re-attach, and the sync already contains its effect.
 * - After it, the daemon's per-agent `seq` must grow by one: a repeated or older `seq` is a
 *   duplicate and dropped; a jump means events were lost, so the feed asks for a fresh `sync`
 *   (`resync`, a re-attach) and drops everything until it comes.
 * - A `sync` that replaces state this client had seen says what went by unseen: a reconnect
 *   gap (its `seq` is ahead) or a sequence reset (a restarted daemon counts from 0 again).
 */
import type { AgentEvent } from "../types/catalog.ts";
import type { AgentSnapshot } from "./agent-snapshot.ts";
import { emptySnapshot } from "./agent-snapshot.ts";
import { applyEvent } from "./apply-event.ts";

/** Events between `lastSeen` and `resumedAt` (both `seq`s) were never seen. */
export interface FeedGap {
  reason: "seq_jump" | "reconnect" | "sequence_reset";
  lastSeen: number;
  resumedAt: number;
}

export type FeedStep =
  | { kind: "applied" }
  /** A `sync` replaced the state; `gap` when it covers events this client never saw. */
  | { kind: "synced"; gap: FeedGap | undefined }
  /** Before the sync of the current attachment (or while a re-sync is on its way): dropped. */
  | { kind: "stale" }
  | { kind: "duplicate" }
  /** A `seq` jump: dropped, and a re-sync was asked for. */
  | { kind: "gap"; gap: FeedGap };

/**
 * - `unsynced`: no sync yet in this feed's first attachment.
 * - `live`: events apply in `seq` order.
 * - `reattaching`: the connection dropped or a re-attach went out; its sync reports the gap.
 * - `resyncing`: a seq jump was reported and a re-sync asked for; its sync only catches up.
 */
type Phase = "unsynced" | "live" | "reattaching" | "resyncing";

export class AgentFeed {
  private current: AgentSnapshot | undefined;
  private phase: Phase = "unsynced";

  /** `resync` asks the server for a fresh `sync` of this agent (a re-attach). */
  constructor(private readonly resync: () => void) {}

  /** The newest snapshot (also while stale, so a view keeps showing the last state). */
  get snapshot(): AgentSnapshot | undefined {
    return this.current;
  }

  /** Whether a `sync` of the current attachment has been applied. */
  get live(): boolean {
    return this.phase === "live";
  }

  /** The connection dropped or a re-attach was sent: whatever arrives before its `sync` is stale. */
  awaitSync(): void {
    if (this.phase === "live") this.phase = "reattaching";
  }

  receive(event: AgentEvent): FeedStep {
    if (event.type === "sync") {
      const before =
        this.phase === "live" || this.phase === "reattaching" ? this.current?.last_seq : undefined;
      this.current = applyEvent(this.current ?? emptySnapshot(), event);
      this.phase = "live";
      const now = this.current.last_seq;
      if (before === undefined || now === before) return { kind: "synced", gap: undefined };
      const reason = now > before ? "reconnect" : "sequence_reset";
      return { kind: "synced", gap: { reason, lastSeen: before, resumedAt: now } };
    }
    if (this.phase !== "live" || this.current === undefined) return { kind: "stale" };
    if (event.seq !== undefined) {
      const last = this.current.last_seq;
      if (event.seq <= last) return { kind: "duplicate" };
      if (event.seq > last + 1) {
        this.phase = "resyncing";
        this.resync();
        return { kind: "gap", gap: { reason: "seq_jump", lastSeen: last, resumedAt: event.seq - 1 } };
      }
    }
    this.current = applyEvent(this.current, event);
    return { kind: "applied" };
  }
}
