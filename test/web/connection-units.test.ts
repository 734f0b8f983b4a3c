/**
 * The connection's pure parts, without a browser: how each inbound message is sorted, what the
 * badge says about a close, and which idle agents are detached. (The backoff and the per-agent
 * feed are shared with the SDK: test/client and test/snapshot.)
 */
import { describe, expect, test } from "bun:test";
import type { AgentEvent } from "../../src/types/catalog.ts";
import { closeReason } from "../../web/src/connection/close-reason.ts";
import { classify } from "../../web/src/connection/inbound.ts";
import { IDLE_DETACH_MS, WatchedAgents } from "../../web/src/state/watched-agents.ts";

describe("classify", () => {
  test("a response, a registry event and an agent event are told apart", () => {
    expect(classify({ type: "response", id: "web-1", command: "agent.list", success: true })).toEqual({
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
    expect(classify(delta)).toEqual({ kind: "agent", agentId: "a1", event: delta });
    const activity = { type: "agent_activity", agent_id: "a1", phase: "idle", status: "idle", timestamp: 1 };
    expect(classify(activity).kind).toBe("daemon");
  });

  test("the connection's hello carries only capabilities", () => {
    const hello = {
      type: "hello",
      protocol_version: "0.1.0",
      server_version: "x",
      capabilities: ["websocket"],
    };
    expect(classify(hello)).toEqual({ kind: "hello", capabilities: ["websocket"] });
  });

  test("a message failing its schema is invalid and names its type", () => {
    expect(classify({ type: "message_delta", agent_id: "a1", block_index: "zero" })).toEqual({
      kind: "invalid",
      reason: "message of type message_delta does not match its schema",
    });
    expect(classify({ type: "no_such_event" }).kind).toBe("invalid");
    expect(classify(42)).toEqual({
      kind: "invalid",
      reason: "message of type ? does not match its schema",
    });
    expect(classify(null).kind).toBe("invalid");
  });

  test("a per-agent event without agent_id is invalid on a daemon connection", () => {
    expect(classify({ type: "status", status: "idle" })).toEqual({
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
