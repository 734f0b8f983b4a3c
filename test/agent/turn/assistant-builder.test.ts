import { describe, expect, test } from "bun:test";
import { AssistantBuilder } from "../../../src/agent/turn/assistant-builder.ts";
import type { ProviderEvent } from "../../../src/contracts/provider.ts";
import type { MessageDeltaEvent } from "../../../src/types/stream-events.ts";

function build(events: ProviderEvent[]) {
  const deltas: MessageDeltaEvent[] = [];
  let n = 0;
  const builder = new AssistantBuilder(
    "msg_1",
    (d) => deltas.push(d),
    () => `tc_${++n}`,
  );
  for (const event of events) builder.apply(event);
  const message = builder.finish();
  return { message, deltas, calls: builder.toolCallsToRun(), empty: builder.isEmpty() };
}

describe("the assistant message a stream builds", () => {
  test("text and thinking merge into blocks by kind; a signature stays with its thinking block", () => {
    const { message, deltas } = build([
      { type: "thinking_delta", text: "hm" },
      { type: "thinking_delta", text: "m." },
      { type: "thinking_signature", signature: "sig-1" },
      { type: "text_delta", text: "4" },
      { type: "text_delta", text: "2" },
    ]);
    expect(message.content).toEqual([
      { type: "thinking", text: "hmm.", signature: "sig-1" },
      { type: "text", text: "42" },
    ]);
    expect(deltas.map((d) => [d.block_index, d.kind, d.text_delta])).toEqual([
      [0, "thinking", "hm"],
      [0, "thinking", "m."],
      [1, "text", "4"],
      [1, "text", "2"],
    ]);
  });

  test("tool calls get our ids, keep the server's as provider_id, and a repeated server id continues the newest call", () => {
    const { message, deltas, calls } = build([
      { type: "tool_call_start", id: "call_0", name: "read" },
      { type: "tool_call_delta", id: "call_0", args_delta: '{"path":' },
      { type: "tool_call_delta", id: "call_0", args_delta: '"a"}' },
      { type: "tool_call_start", id: "call_0", name: "ls" },
      { type: "tool_call_delta", id: "call_0", args_delta: "{}" },
    ]);
    expect(message.content).toEqual([
      { type: "tool_call", id: "tc_1", name: "read", args: { path: "a" }, provider_id: "call_0" },
      { type: "tool_call", id: "tc_2", name: "ls", args: {}, provider_id: "call_0" },
    ]);
    expect(calls.map((c) => [c.block.id, c.argsError])).toEqual([
      ["tc_1", undefined],
      ["tc_2", undefined],
    ]);
    expect(deltas.filter((d) => d.tool_call_id !== undefined).map((d) => d.tool_call_id)).toEqual([
      "tc_1",
      "tc_2",
    ]);
  });

  test("arguments that are not a JSON object are an error of that call, with empty args", () => {
    const { message, calls } = build([
      { type: "tool_call_start", id: "a", name: "read" },
      { type: "tool_call_delta", id: "a", args_delta: "[1]" },
      { type: "tool_call_start", id: "b", name: "read" },
      { type: "tool_call_delta", id: "b", args_delta: "{nope" },
    ]);
    expect(message.content.map((b) => (b.type === "tool_call" ? b.args : undefined))).toEqual([{}, {}]);
    expect(calls[0]?.argsError).toBe("tool arguments must be a JSON object");
    expect(calls[1]?.argsError).toStartWith("tool arguments are not valid JSON");
  });

  test("a stream with no content is empty; deltas for an unknown server id are ignored", () => {
    const { message, empty, deltas } = build([{ type: "tool_call_delta", id: "x", args_delta: "{}" }]);
    expect(empty).toBe(true);
    expect(message.content).toEqual([]);
    expect(deltas).toEqual([]);
  });
});
