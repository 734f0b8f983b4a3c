/** The reducer alone: each event's effect on the snapshot, and that it never mutates its input. */
import { describe, expect, test } from "bun:test";
import { type AgentSnapshot, emptySnapshot, syncFromSnapshot } from "../../src/snapshot/agent-snapshot.ts";
import { applyEvent, applyEvents } from "../../src/snapshot/apply-event.ts";
import { LIVE_OUTPUT_TAIL_CHARS, MAX_TOOL_CALL_RECORDS } from "../../src/snapshot/tool-call-records.ts";
import type { AgentEvent } from "../../src/types/catalog.ts";
import type { Message } from "../../src/types/messages.ts";

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
    expect(after.live_window).toEqual({
      messages: [summary, user("c", "3")],
      compaction_index: 0,
      compaction_tokens: { before: 10, after: 4 },
    });
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

  test("an unpriced call leaves the cost unknown, never 0; priced calls move the budget", () => {
    const budget = { budget_usd: 5, spent_usd: 1 };
    const s = applyEvents({ ...emptySnapshot(), budget }, [
      { type: "usage", input: 10, output: 2, cost_unknown: true, model: "local/free" },
    ]);
    expect(s.usage.cost).toBeUndefined();
    expect(s.usage.cost_unknown).toBe(true);
    expect(s.budget).toEqual(budget);
    const later = applyEvents(s, [{ type: "usage", input: 1, output: 1, cost: 0.5, model: "mock/chat" }]);
    expect(later.usage).toMatchObject({ cost: 0.5, cost_unknown: true });
    expect(later.budget).toEqual({ budget_usd: 5, spent_usd: 1.5 });
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

describe("tool call records", () => {
  const call = (id: string): Message => ({
    id: `a_${id}`,
    role: "assistant",
    content: [{ type: "tool_call", id, name: "edit", args: { path: "f.txt" } }],
  });
  const diff = {
    kind: "diff" as const,
    path: "f.txt",
    hunks: [{ old_start: 1, old_lines: 1, new_start: 1, new_lines: 1, lines: ["-a", "+b"] }],
  };

  test("tool_call, tool_output and tool_result fill one record that sync carries", () => {
    const s = applyEvents({ ...emptySnapshot(), live_window: { messages: [call("c1")] } }, [
      { type: "tool_call", tool_call_id: "c1", name: "edit", args: {}, read_only: false, render: diff },
      { type: "tool_output", tool_call_id: "c1", text_delta: "work" },
      { type: "tool_output", tool_call_id: "c1", text_delta: "ing" },
    ]);
    expect(s.tool_calls).toEqual([
      { tool_call_id: "c1", name: "edit", read_only: false, call_render: diff, live_output: "working" },
    ]);
    const done = applyEvent(s, {
      type: "tool_result",
      message_id: "r1",
      tool_call_id: "c1",
      content: { kind: "text", text: "Edited f.txt" },
      is_error: false,
      exit_code: 0,
      duration_ms: 12,
      render: diff,
    });
    // The live output is gone once the authoritative result is in.
    expect(done.tool_calls).toEqual([
      {
        tool_call_id: "c1",
        name: "edit",
        read_only: false,
        call_render: diff,
        result_render: diff,
        exit_code: 0,
        duration_ms: 12,
      },
    ]);
    expect(syncFromSnapshot(done).tool_calls).toEqual(done.tool_calls);
    expect(applyEvent(emptySnapshot(), syncFromSnapshot(done))).toEqual(done);
  });

  test("a result without a tool_call (a denied call) still records its figures", () => {
    const s = applyEvent(emptySnapshot(), {
      type: "tool_result",
      message_id: "r1",
      tool_call_id: "c9",
      content: { kind: "error", message: "permission denied: no" },
      is_error: true,
      duration_ms: 0,
    });
    expect(s.tool_calls).toEqual([{ tool_call_id: "c9", duration_ms: 0 }]);
  });

  test("output of a call never seen starting changes nothing", () => {
    const s = applyEvent(emptySnapshot(), { type: "tool_output", tool_call_id: "zz", text_delta: "x" });
    expect(s.tool_calls).toBeUndefined();
  });

  test("live output keeps only its tail", () => {
    let s = applyEvent(emptySnapshot(), { type: "tool_call", tool_call_id: "c1", name: "bash", args: {} });
    for (let i = 0; i < 30; i++) {
      s = applyEvent(s, { type: "tool_output", tool_call_id: "c1", text_delta: `${i}`.padEnd(1000, ".") });
    }
    const live = s.tool_calls?.[0]?.live_output ?? "";
    expect(live.length).toBe(LIVE_OUTPUT_TAIL_CHARS);
    expect(live.endsWith(`29${".".repeat(998)}`)).toBe(true);
  });

  test("at most MAX_TOOL_CALL_RECORDS are kept, the newest", () => {
    let s = emptySnapshot();
    for (let i = 0; i < MAX_TOOL_CALL_RECORDS + 5; i++) {
      s = applyEvent(s, { type: "tool_call", tool_call_id: `c${i}`, name: "ls", args: {} });
    }
    expect(s.tool_calls).toHaveLength(MAX_TOOL_CALL_RECORDS);
    expect(s.tool_calls?.[0]?.tool_call_id).toBe("c5");
  });

  test("a compaction drops the records of the calls it summarized; none left is no field", () => {
    const before = applyEvents(
      { ...emptySnapshot(), live_window: { messages: [call("old"), call("new")] } },
      [
        { type: "tool_call", tool_call_id: "old", name: "edit", args: {}, render: diff },
        { type: "tool_call", tool_call_id: "new", name: "edit", args: {}, render: diff },
      ],
    );
    const compaction = {
      type: "compaction" as const,
      index: 0,
      tokens_before: 10,
      tokens_after: 4,
      first_kept_entry_id: "ent_new",
      message_range: ["ent_old", "ent_old"] as [string, string],
      summary_message: user("sum", "[Context compacted]"),
    };
    const kept = applyEvent(before, { ...compaction, first_kept_message_id: "a_new" });
    expect(kept.tool_calls?.map((r) => r.tool_call_id)).toEqual(["new"]);
    const none = applyEvent(before, compaction);
    expect(none.live_window.messages).toEqual([user("sum", "[Context compacted]")]);
    expect("tool_calls" in none).toBe(false);
  });

  test("mcp_status replaces the MCP servers; sync carries them and rebuilds the same snapshot", () => {
    const starting = applyEvent(
      deepFreeze(emptySnapshot()),
      deepFreeze<AgentEvent>({
        type: "mcp_status",
        seq: 1,
        servers: [{ name: "gh", state: "starting", tools: 0 }],
      }),
    );
    const servers = [
      { name: "gh", state: "ready" as const, tools: 12 },
      { name: "docs", state: "failed" as const, tools: 0, error: "could not start: [redacted]" },
    ];
    const s = applyEvent(deepFreeze(starting), { type: "mcp_status", seq: 2, servers });
    expect(s.mcp_servers).toEqual(servers);
    expect(syncFromSnapshot(s).mcp_servers).toEqual(servers);
    expect(applyEvent(emptySnapshot(), syncFromSnapshot(s))).toEqual(s);
    expect("mcp_servers" in syncFromSnapshot(emptySnapshot())).toBe(false);
  });
});
