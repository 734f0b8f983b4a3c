/**
 * The per-agent feed the web and the SDK share: sync first (earlier events are stale), then
 * `seq` in order; a duplicate is dropped, a jump asks for a fresh sync and drops everything
 * until it comes, and a sync after a reconnect says what went by unseen.
 */
import { describe, expect, test } from "bun:test";
import { AgentFeed } from "../../src/snapshot/agent-feed.ts";
import type { AgentEvent } from "../../src/types/catalog.ts";

const sync = (seq: number, text: string, pending: AgentEvent[] = []): AgentEvent => ({
  type: "sync",
  agent_id: "a1",
  seq,
  status: "idle",
  mode: "build",
  live_window: { messages: [{ id: `m-${text}`, role: "user", content: [{ type: "text", text }] }] },
  pending_requests: pending.flatMap((p) => (p.type === "permission_request" ? [p] : [])),
});
const delta = (seq: number, text: string): AgentEvent => ({
  type: "message_delta",
  agent_id: "a1",
  seq,
  message_id: "m2",
  block_index: 0,
  kind: "text",
  text_delta: text,
});
const permission = (seq?: number): AgentEvent => ({
  type: "permission_request",
  agent_id: "a1",
  ...(seq !== undefined ? { seq } : {}),
  request_id: "r1",
  tool_name: "bash",
  input: {},
  prompt: "run?",
  options: ["allow", "deny"],
});
const streamed = (feed: AgentFeed) => feed.snapshot?.streaming_message?.blocks[0]?.text;

/** A feed that counts the re-syncs it asked for. */
function feed() {
  const asked = { resyncs: 0 };
  return { feed: new AgentFeed(() => asked.resyncs++), asked };
}

describe("AgentFeed", () => {
  test("events before the first sync are stale: the sync already holds their effect", () => {
    const { feed: f, asked } = feed();
    expect(f.receive(delta(1, "x"))).toEqual({ kind: "stale" });
    expect(f.receive(delta(5, "y"))).toEqual({ kind: "stale" });
    expect(f.snapshot).toBeUndefined();
    expect(f.live).toBe(false);
    expect(f.receive(sync(1, "hello"))).toEqual({ kind: "synced", gap: undefined });
    expect(f.receive(delta(2, "a"))).toEqual({ kind: "applied" });
    expect(streamed(f)).toBe("a");
    expect(asked.resyncs).toBe(0);
  });

  test("a duplicate seq is dropped, so a delta never shows twice", () => {
    const { feed: f } = feed();
    f.receive(sync(3, "hello"));
    f.receive(delta(4, "a"));
    expect(f.receive(delta(4, "a"))).toEqual({ kind: "duplicate" });
    expect(f.receive(delta(3, "z"))).toEqual({ kind: "duplicate" });
    f.receive(delta(5, "b"));
    expect(streamed(f)).toBe("ab");
  });

  test("a seq jump asks for one re-sync and stops applying until it replaces the state", () => {
    const { feed: f, asked } = feed();
    f.receive(sync(0, "hello"));
    f.receive(delta(1, "a"));
    expect(f.receive(delta(3, "c"))).toEqual({
      kind: "gap",
      gap: { reason: "seq_jump", lastSeen: 1, resumedAt: 2 },
    });
    expect(asked.resyncs).toBe(1);
    expect(f.live).toBe(false);
    expect(f.receive(delta(4, "d"))).toEqual({ kind: "stale" });
    // The re-attach that the re-sync sends does not turn the reported gap into a second one.
    f.awaitSync();
    expect(asked.resyncs).toBe(1);
    expect(streamed(f)).toBe("a");
    expect(f.receive(sync(4, "fresh", [permission()]))).toEqual({ kind: "synced", gap: undefined });
    expect(f.snapshot?.live_window.messages.map((m) => m.id)).toEqual(["m-fresh"]);
    expect(f.snapshot?.pending_requests.map((r) => r.request_id)).toEqual(["r1"]);
    expect(f.receive(delta(5, "e"))).toEqual({ kind: "applied" });
  });

  test("after a drop, events before the re-attach's sync are stale; the sync reports what was missed", () => {
    const { feed: f } = feed();
    f.receive(sync(10, "old"));
    f.receive(delta(11, "a"));
    f.awaitSync();
    // An event racing the new sync (e.g. a child's request routed here) must not touch the state.
    expect(f.receive(delta(12, "b"))).toEqual({ kind: "stale" });
    expect(streamed(f)).toBe("a");
    expect(f.receive(sync(15, "later"))).toEqual({
      kind: "synced",
      gap: { reason: "reconnect", lastSeen: 11, resumedAt: 15 },
    });
    expect(f.receive(delta(16, "c"))).toEqual({ kind: "applied" });
  });

  test("a restarted daemon counts again from the start: its sync is still authoritative", () => {
    const { feed: f } = feed();
    f.receive(sync(10, "old"));
    f.receive(delta(11, "a"));
    f.awaitSync();
    expect(f.receive(sync(2, "restarted"))).toEqual({
      kind: "synced",
      gap: { reason: "sequence_reset", lastSeen: 11, resumedAt: 2 },
    });
    expect(f.snapshot?.streaming_message).toBeUndefined();
    expect(f.snapshot?.last_seq).toBe(2);
    expect(f.receive(delta(3, "c"))).toEqual({ kind: "applied" });
  });

  test("a re-attach with nothing missed reports no gap", () => {
    const { feed: f } = feed();
    f.receive(sync(1, "hello"));
    f.receive(delta(2, "a"));
    f.awaitSync();
    expect(f.receive(sync(2, "hello"))).toEqual({ kind: "synced", gap: undefined });
  });

  test("a request resolved while the client was away is gone after the sync", () => {
    const { feed: f } = feed();
    f.receive(sync(1, "hello"));
    f.receive(permission(2));
    expect(f.snapshot?.pending_requests).toHaveLength(1);
    f.awaitSync();
    f.receive(sync(9, "hello"));
    expect(f.snapshot?.pending_requests).toEqual([]);
  });

  test("events without seq (a direct agent's) apply in arrival order once synced", () => {
    const { feed: f } = feed();
    f.receive({ ...sync(0, "hello"), seq: undefined });
    expect(f.receive({ type: "status", status: "streaming" })).toEqual({ kind: "applied" });
    expect(f.snapshot?.status).toBe("streaming");
  });
});
