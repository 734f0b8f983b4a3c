/** OpenAI Chat Completions: streaming `data:` chunks and error bodies, as the real API sends them. */
import {
  dataEvent,
  encodeSteps,
  errorStatus,
  isContextOverflow,
  isTypeName,
  splitChunks,
  stopOf,
  toolArgsText,
  usageOf,
} from "./sse-frames.ts";
import type { MockReply, Segment } from "./types.ts";

let completionCounter = 0;

const FINISH = { end_turn: "stop", tool_use: "tool_calls", max_tokens: "length" } as const;

export function* chatCompletionFrames(
  reply: MockReply,
  model: string,
  includeUsage: boolean,
): Generator<Segment> {
  const id = `chatcmpl-mock-${++completionCounter}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: unknown, finish_reason: string | null = null) =>
    dataEvent({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      choices: [{ index: 0, delta, finish_reason }],
    });
  yield chunk({ role: "assistant", content: "" });
  let toolIndex = 0;
  const finished = yield* encodeSteps(reply, function* (step) {
    if ("text" in step) {
      for (const content of splitChunks(step.text, step.chunks)) yield chunk({ content });
    } else if ("thinking" in step) {
      // DeepSeek/vLLM/Ollama style reasoning deltas.
      for (const reasoning_content of splitChunks(step.thinking, step.chunks))
        yield chunk({ reasoning_content });
    } else {
      const call = step.tool_call;
      const index = toolIndex++;
      yield chunk({
        tool_calls: [
          {
            index,
            id: call.id ?? `call_mock_${id}_${index}`,
            type: "function",
            function: { name: call.name, arguments: "" },
          },
        ],
      });
      for (const args of splitChunks(toolArgsText(call.args), call.chunks)) {
        yield chunk({ tool_calls: [{ index, function: { arguments: args } }] });
      }
    }
  });
  if (!finished) return;
  yield chunk({}, FINISH[stopOf(reply)]);
  if (includeUsage) {
    const u = usageOf(reply);
    yield dataEvent({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      choices: [],
      usage: {
        prompt_tokens: u.input + u.cache_read,
        completion_tokens: u.output,
        total_tokens: u.input + u.cache_read + u.output,
        prompt_tokens_details: { cached_tokens: u.cache_read },
      },
    });
  }
  yield "data: [DONE]\n\n";
}

const TYPE_BY_STATUS: Record<number, { type: string; code: string | null }> = {
  400: { type: "invalid_request_error", code: null },
  401: { type: "invalid_request_error", code: "invalid_api_key" },
  403: { type: "invalid_request_error", code: "unsupported_country_region_territory" },
  404: { type: "invalid_request_error", code: "model_not_found" },
  429: { type: "requests", code: "rate_limit_exceeded" },
  500: { type: "server_error", code: null },
  503: { type: "server_error", code: null },
};

/** The error body shared by Chat Completions and Responses. */
export function openaiError(reply: MockReply): { status: number; body: unknown } {
  const status = errorStatus(reply);
  const given = reply.error_type;
  let { type, code } = TYPE_BY_STATUS[status] ?? { type: "server_error", code: null };
  let message = `mock ${code ?? type}`;
  if (isContextOverflow(given)) {
    type = "invalid_request_error";
    code = "context_length_exceeded";
    message =
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.";
  } else if (given && isTypeName(given)) {
    type = given;
    code = given;
    message = `mock ${given}`;
  } else if (given) {
    message = given;
  }
  return { status, body: { error: { message, type, param: null, code } } };
}
