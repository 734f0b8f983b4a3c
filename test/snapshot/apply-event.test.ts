/** The reducer alone: each event's effect on the snapshot, and that it never mutates its input. */
import { describe, expect, test } from "bun:test";
import { type AgentSnapshot, emptySnapshot, syncFromSnapshot } from "../../src/snapshot/agent-snapshot.ts";
import { applyEvent, applyEvents } from "../../src/snapshot/apply-event.ts";
import type { AgentEvent } from "../../src/types/catalog.ts";
import type { Message } from "../../src/types/shared.ts";

const user = (id: string, text: string): Message => ({ id, role: "user", content: [{ type: "text", text }] });

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe("applyEvent", () => {
  test("deltas build the streaming message; message_complete replaces it with the final message", () => {
    const events: AgentEvent[] = [
      { type: "turn_start", seq: 1, turn_id: "turn_1" },
      { type: "message_delta", seq: 2, message_id: "m1", block_index: 0, kind: "thinking", text_delta: "hm" },
      { type: "message_delta", seq: 3, message_id: "m1", block_index: 1, kind: "text", text_delta: "Hel" },
      { type: "message_delta", seq: 4, message_id: "m1", block_index: 1, kind: "text", text_delta: "lo" },
      {
        type: "message_delta",
        seq: 5,
        message_id: "m1",
        block_index: 2,
        kind: "tool_call",
        tool_call_id: "c1",
        name: "ls",
      },
      {
        type: "message_delta",
        seq: 6,
        message_id: "m1",
        block_index: 2,
        kind: "tool_call",
        args_delta: '{"pa',
      },
      {
        type: "message_delta",
        seq: 7,
        message_id: "m1",
        block_index: 2,
        kind: "tool_call",
        args_delta: 'th":"."}',
      },
    ];
    const streaming = applyEvents(emptySnapshot(), events);
    expect(streaming.turn_id).toBe("turn_1");
    expect(streaming.last_seq).toBe(7);
    expect(streaming.streaming_message).toEqual({
      message_id: "m1",
      blocks: [
        { kind: "thinking", text: "hm" },
        { kind: "text", text: "Hello" },
        { kind: "tool_call", tool_call_id: "c1", name: "ls", args_text: '{"path":"."}' },
      ],
    });
    const final: Message = { id: "m1", role: "assistant", content: [{ type: "text", text: "Hello" }] };
    const done = applyEvent(streaming, {
      type: "message_complete",
      seq: 8,
      message_id: "m1",
      message: final,
    });
    expect(done.streaming_message).toBeUndefined();
    expect(done.live_window.messages).toEqual([final]);
    const ended = applyEvent(done, { type: "turn_end", seq: 9, turn_id: "turn_1" });
    expect(ended.turn_id).toBeUndefined();
  });

  test("turn_end drops a message whose stream was cut off before message_complete", () => {
    const s = applyEvents(emptySnapshot(), [
      { type: "message_delta", seq: 1, message_id: "m1", block_index: 0, kind: "text", text_delta: "par" },
      { type: "turn_end", seq: 2, turn_id: "t" },
    ]);
    expect(s.streaming_message).toBeUndefined();
  });

  test("a block index past the end is padded, never a hole in the array", () => {
    const s = applyEvent(emptySnapshot(), {
      type: "message_delta",
      message_id: "m",
      block_index: 2,
      kind: "text",
      text_delta: "x",
    });
    expect(s.streaming_message?.blocks).toEqual([
      { kind: "text" },
      { kind: "text" },
      { kind: "text", text: "x" },
    ]);
  });

  test("a tool_result adds its tool-result message; one without a message_id changes nothing", () => {
    const result = applyEvent(emptySnapshot(), {
      type: "tool_result",
      message_id: "m2",
      tool_call_id: "c1",
      content: { kind: "text", text: "a\nb" },
      is_error: false,
      exit_code: 0,
      duration_ms: 4,
    });
    expect(result.live_window.messages).toEqual([
      {
        id: "m2",
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_call_id: "c1",
            content: { kind: "text", text: "a\nb" },
            is_error: false,
            exit_code: 0,
          },
        ],
      },
    ]);
    const legacy = applyEvent(emptySnapshot(), {
      type: "tool_result",
      tool_call_id: "c1",
      content: { kind: "text", text: "x" },
      is_error: false,
    });
    expect(legacy.live_window.messages).toEqual([]);
  });

  test("a compaction puts its summary in front of the kept messages", () => {
    const before: AgentSnapshot = {
      ...emptySnapshot(),
      live_window: { messages: [user("a", "1"), user("b", "2"), user("c", "3")] },
    };
    const summary = user("ent_x", "[Context compacted] …");
    const after = applyEvent(before, {
      type: "compaction",
      index: 0,
      tokens_before: 10,
      tokens_after: 4,
      first_kept_entry_id: "ent_c",
      message_range: ["ent_a", "ent_b"],
      summary_message: summary,
      first_kept_message_id: "c",
    });
    expect(after.live_window).toEqual({ messages: [summary, user("c", "3")], compaction_index: 0 });
  });

  test("requests are pending until resolved, kept without their event seq", () => {
    const asked = applyEvent(emptySnapshot(), {
      type: "permission_request",
      seq: 3,
      request_id: "r1",
      tool_name: "bash",
      input: { command: "ls" },
      prompt: "Run ls?",
      options: ["allow", "deny"],
    });
    expect(asked.status).toBe("idle"); // status comes from status events, not from inference
    expect(asked.pending_requests).toEqual([
      {
        type: "permission_request",
        request_id: "r1",
        tool_name: "bash",
        input: { command: "ls" },
        prompt: "Run ls?",
        options: ["allow", "deny"],
      },
    ]);
    const ui = applyEvent(asked, {
      type: "ui_request",
      seq: 4,
      request_id: "r2",
      kind: "confirm",
      title: "Sure?",
    });
    expect(ui.pending_requests.map((r) => r.request_id)).toEqual(["r1", "r2"]);
    const resolved = applyEvent(ui, {
      type: "permission_resolved",
      seq: 5,
      request_id: "r1",
      decision: "deny",
    });
    expect(resolved.pending_requests.map((r) => r.request_id)).toEqual(["r2"]);
    expect(
      applyEvent(resolved, { type: "ui_resolved", request_id: "r2", value: null }).pending_requests,
    ).toEqual([]);
  });

  test("mode, model and reasoning changes; usage sums over calls", () => {
    const model = { id: "mock/chat", provider: "mock", model: "chat" };
    const claude = { id: "mockant/claude", provider: "mockant", model: "claude" };
    const s = applyEvents({ ...emptySnapshot(), model, reasoning_level: "low" }, [
      { type: "mode_changed", previous_mode: "build", mode: "plan" },
      {
        type: "model_changed",
        previous: model,
        active: claude,
        effective: "next_provider_call",
        capabilities: ["x"],
        reasoning_level: "medium",
      },
      {
        type: "reasoning_level_changed",
        model: claude,
        previous: "medium",
        active: "high",
        effective: "next_provider_call",
      },
      {
        type: "reasoning_level_changed",
        model,
        previous: "low",
        active: "high",
        effective: "next_provider_call",
      },
      { type: "usage", input: 10, output: 2, cost: 0.5, context_tokens: 12, model: "mockant/claude" },
      { type: "usage", input: 5, output: 1, cache_read: 3, cost: 0.25, context_tokens: 20 },
      { type: "status", status: "streaming" },
    ]);
    expect(s.mode).toBe("plan");
    expect(s.model).toEqual(claude);
    expect(s.capabilities).toEqual(["x"]);
    expect(s.reasoning_level).toBe("high");
    expect(s.usage).toEqual({
      input: 15,
      output: 3,
      cache_read: 3,
      cache_write: 0,
      cost: 0.75,
      context_tokens: 20,
      model: "mockant/claude",
    });
    expect(s.status).toBe("streaming");
  });

  test("never mutates its input, and a sync round-trips", () => {
    const start = deepFreeze<AgentSnapshot>({
      ...emptySnapshot(),
      live_window: { messages: [user("a", "1")] },
      streaming_message: { message_id: "m", blocks: [{ kind: "text", text: "x" }] },
    });
    const events: AgentEvent[] = [
      { type: "message_delta", message_id: "m", block_index: 0, kind: "text", text_delta: "y" },
      { type: "message_complete", message_id: "m", message: user("m", "xy") },
      {
        type: "permission_request",
        request_id: "r",
        tool_name: "t",
        input: {},
        prompt: "p",
        options: ["deny"],
      },
    ];
    let s = start;
    for (const e of events) s = deepFreeze(applyEvent(s, deepFreeze(e)));
    expect(start.live_window.messages).toHaveLength(1);
    expect(start.streaming_message?.blocks[0]?.text).toBe("x");
    const replayed = applyEvent(emptySnapshot(), syncFromSnapshot(s));
    expect(replayed).toEqual(s);
  });
});
