/**
 * The connection's pure parts, without a browser: the reconnect backoff, how each inbound
 * message is sorted, and the per-agent feed that keeps a snapshot exact across reconnects
 * (sync first, then `seq` in order; duplicates dropped, a gap asks for a fresh sync).
 */
import { describe, expect, test } from "bun:test";
import type { AgentEvent } from "../../src/types/catalog.ts";
import { FIRST_DELAY_MS, MAX_DELAY_MS, reconnectDelayMs } from "../../web/src/connection/backoff.ts";
import { closeReason } from "../../web/src/connection/close-reason.ts";
import { classify } from "../../web/src/connection/inbound.ts";
import { AgentFeed } from "../../web/src/state/agent-feed.ts";
import { IDLE_DETACH_MS, WatchedAgents } from "../../web/src/state/watched-agents.ts";

describe("reconnectDelayMs", () => {
  test("doubles from 1 s and is capped at 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20, 1000].map(reconnectDelayMs)).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 30_000,
    ]);
    expect(FIRST_DELAY_MS).toBe(1000);
    expect(MAX_DELAY_MS).toBe(30_000);
  });

  test("a negative attempt counts as the first", () => {
    expect(reconnectDelayMs(-3)).toBe(1000);
  });
});

describe("classify", () => {
  test("a response, a registry event and an agent event are told apart", () => {
    expect(
      classify(JSON.stringify({ type: "response", id: "web-1", command: "agent.list", success: true })),
    ).toEqual({
      kind: "response",
      response: { type: "response", id: "web-1", command: "agent.list", success: true },
    });
    const delta: AgentEvent = {
      type: "message_delta",
      agent_id: "a1",
      seq: 4,
      message_id: "m1",
      block_index: 0,
      kind: "text",
      text_delta: "hi",
    };
    expect(classify(JSON.stringify(delta))).toEqual({ kind: "agent", agentId: "a1", event: delta });
    const activity = { type: "agent_activity", agent_id: "a1", phase: "idle", status: "idle", timestamp: 1 };
    expect(classify(JSON.stringify(activity)).kind).toBe("daemon");
  });

  test("the connection's hello carries only capabilities", () => {
    const hello = {
      type: "hello",
      protocol_version: "0.1.0",
      server_version: "x",
      capabilities: ["websocket"],
    };
    expect(classify(JSON.stringify(hello))).toEqual({ kind: "hello", capabilities: ["websocket"] });
  });

  test("text that is not JSON is invalid", () => {
    expect(classify("{not json")).toEqual({ kind: "invalid", reason: "not JSON" });
    expect(classify("")).toEqual({ kind: "invalid", reason: "not JSON" });
  });

  test("a message failing its schema is invalid and names its type", () => {
    expect(classify(JSON.stringify({ type: "message_delta", agent_id: "a1", block_index: "zero" }))).toEqual({
      kind: "invalid",
      reason: "message of type message_delta does not match its schema",
    });
    expect(classify(JSON.stringify({ type: "no_such_event" })).kind).toBe("invalid");
    expect(classify("42")).toEqual({
      kind: "invalid",
      reason: "message of type ? does not match its schema",
    });
    expect(classify("null").kind).toBe("invalid");
  });

  test("a per-agent event without agent_id is invalid on a daemon connection", () => {
    expect(classify(JSON.stringify({ type: "status", status: "idle" }))).toEqual({
      kind: "invalid",
      reason: "status without agent_id",
    });
  });
});

describe("closeReason", () => {
  test("1008 says the daemon closed it, with its reason", () => {
    expect(closeReason(1008, "outbound buffer over 8388608 bytes")).toBe(
      "the daemon closed the connection: outbound buffer over 8388608 bytes",
    );
    expect(closeReason(1006, "")).toBe("the connection to the daemon was lost");
    expect(closeReason(4000, "dropped by the page")).toBe("dropped by the page");
  });
});

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
const streamed = (feed: AgentFeed) => feed.snapshot?.streaming_message?.blocks[0]?.text;

describe("AgentFeed", () => {
  test("nothing applies before the first sync", () => {
    const feed = new AgentFeed();
    expect(feed.receive(delta(1, "x"))).toBe("stale");
    expect(feed.snapshot).toBeUndefined();
    expect(feed.receive(sync(1, "hello"))).toBe("applied");
    expect(feed.receive(delta(2, "a"))).toBe("applied");
    expect(streamed(feed)).toBe("a");
  });

  test("a duplicate seq is dropped, so a delta never shows twice", () => {
    const feed = new AgentFeed();
    feed.receive(sync(3, "hello"));
    feed.receive(delta(4, "a"));
    expect(feed.receive(delta(4, "a"))).toBe("duplicate");
    expect(feed.receive(delta(3, "z"))).toBe("duplicate");
    feed.receive(delta(5, "b"));
    expect(streamed(feed)).toBe("ab");
  });

  test("a gap stops applying until a fresh sync replaces the state", () => {
    const feed = new AgentFeed();
    feed.receive(sync(0, "hello"));
    feed.receive(delta(1, "a"));
    expect(feed.receive(delta(3, "c"))).toBe("gap");
    expect(feed.live).toBe(false);
    expect(feed.receive(delta(4, "d"))).toBe("stale");
    expect(streamed(feed)).toBe("a");
    const permission: AgentEvent = {
      type: "permission_request",
      agent_id: "a1",
      request_id: "r1",
      tool_name: "bash",
      input: {},
      prompt: "run?",
      options: ["allow", "deny"],
    };
    expect(feed.receive(sync(4, "fresh", [permission]))).toBe("applied");
    expect(feed.snapshot?.live_window.messages.map((m) => m.id)).toEqual(["m-fresh"]);
    expect(feed.snapshot?.pending_requests.map((r) => r.request_id)).toEqual(["r1"]);
    expect(feed.receive(delta(5, "e"))).toBe("applied");
  });

  test("after a drop, events before the re-attach's sync are stale, even with larger seq", () => {
    const feed = new AgentFeed();
    feed.receive(sync(10, "old"));
    feed.receive(delta(11, "a"));
    feed.awaitSync();
    // An event racing the new sync (e.g. a child's request routed here) must not touch the state.
    expect(feed.receive(delta(12, "b"))).toBe("stale");
    expect(streamed(feed)).toBe("a");
    // The daemon restarted: its seq starts again, and the sync is still authoritative.
    expect(feed.receive(sync(2, "restarted"))).toBe("applied");
    expect(feed.snapshot?.streaming_message).toBeUndefined();
    expect(feed.snapshot?.last_seq).toBe(2);
    expect(feed.receive(delta(3, "c"))).toBe("applied");
  });

  test("a request resolved while the page was away is gone after the sync", () => {
    const feed = new AgentFeed();
    const permission: AgentEvent = {
      type: "permission_request",
      agent_id: "a1",
      seq: 2,
      request_id: "r1",
      tool_name: "bash",
      input: {},
      prompt: "run?",
      options: ["allow", "deny"],
    };
    feed.receive(sync(1, "hello"));
    feed.receive(permission);
    expect(feed.snapshot?.pending_requests).toHaveLength(1);
    feed.awaitSync();
    feed.receive(sync(9, "hello"));
    expect(feed.snapshot?.pending_requests).toEqual([]);
  });
});

describe("WatchedAgents", () => {
  test("an agent not viewed for the idle time is due for detaching; the selected one never is", () => {
    let now = 0;
    const watched = new WatchedAgents(() => now);
    watched.watch("a");
    watched.watch("b");
    now = IDLE_DETACH_MS - 1;
    watched.viewed("b");
    expect(watched.idle(undefined)).toEqual([]);
    now = IDLE_DETACH_MS + 1;
    expect(watched.idle(undefined)).toEqual(["a"]);
    expect(watched.idle("a")).toEqual([]);
    watched.forget("a");
    expect(watched.ids()).toEqual(["b"]);
  });
});
