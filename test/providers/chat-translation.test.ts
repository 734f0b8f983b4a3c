/** Chat Completions chunk shapes from compatible servers that the mock does not emit itself. */
import { describe, expect, test } from "bun:test";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { translateChatStream } from "../../src/providers/openai-completions/events.ts";
import { collect } from "./helpers.ts";

function chunk(delta: Record<string, unknown>, finish_reason: string | null = null): ChatCompletionChunk {
  return {
    id: "c1",
    object: "chat.completion.chunk",
    created: 0,
    model: "m",
    choices: [{ index: 0, delta, finish_reason }],
  } as ChatCompletionChunk;
}

async function* from(chunks: ChatCompletionChunk[]) {
  yield* chunks;
}

describe("translateChatStream", () => {
  test("`reasoning` (Ollama/OpenRouter) and `reasoning_content` (DeepSeek/vLLM) become thinking", async () => {
    const events = await collect(
      translateChatStream(
        from([chunk({ reasoning: "a" }), chunk({ reasoning_content: "b" }), chunk({ content: "c" }, "stop")]),
      ),
    );
    expect(events.slice(0, 3)).toEqual([
      { type: "thinking_delta", text: "a" },
      { type: "thinking_delta", text: "b" },
      { type: "text_delta", text: "c" },
    ]);
  });

  test("arguments that arrive before the name are held until the call starts; no id gets one", async () => {
    const events = await collect(
      translateChatStream(
        from([
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a"' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { name: "ls", arguments: ":1}" } }] }),
          chunk({}, "stop"),
        ]),
      ),
    );
    const start = events[0];
    expect(start).toMatchObject({ type: "tool_call_start", name: "ls" });
    const id = start?.type === "tool_call_start" ? start.id : "";
    expect(id.length).toBeGreaterThan(0);
    expect(events.slice(1, 3)).toEqual([
      { type: "tool_call_delta", id, args_delta: '{"a"' },
      { type: "tool_call_delta", id, args_delta: ":1}" },
    ]);
    // finish_reason "stop" with tool calls still means the model wants tools run.
    expect(events.at(-1)).toEqual({ type: "done", stop_reason: "tool_use" });
  });

  test("a stream without a finish_reason is an incomplete response", async () => {
    await expect(collect(translateChatStream(from([chunk({ content: "x" })])))).rejects.toThrow(
      /closed before/,
    );
  });
});
