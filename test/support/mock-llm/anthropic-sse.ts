/** Anthropic Messages API: streaming SSE and error bodies, as the real API sends them. */
import {
  encodeSteps,
  errorStatus,
  isContextOverflow,
  isTypeName,
  namedEvent,
  splitChunks,
  stopOf,
  toolArgsText,
  usageOf,
} from "./sse-frames.ts";
import type { MockReply, Segment } from "./types.ts";

let messageCounter = 0;

export function* anthropicFrames(reply: MockReply, model: string): Generator<Segment> {
  const usage = usageOf(reply);
  const id = `msg_mock_${++messageCounter}`;
  yield namedEvent("message_start", {
    type: "message_start",
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input,
        output_tokens: 1,
        cache_read_input_tokens: usage.cache_read,
        cache_creation_input_tokens: 0,
      },
    },
  });
  yield namedEvent("ping", { type: "ping" });
  let index = 0;
  let toolCount = 0;
  const finished = yield* encodeSteps(reply, function* (step) {
    if ("text" in step) {
      yield namedEvent("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      });
      for (const text of splitChunks(step.text, step.chunks)) {
        yield namedEvent("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "text_delta", text },
        });
      }
    } else if ("thinking" in step) {
      yield namedEvent("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "thinking", thinking: "", signature: "" },
      });
      for (const thinking of splitChunks(step.thinking, step.chunks)) {
        yield namedEvent("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "thinking_delta", thinking },
        });
      }
      yield namedEvent("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "signature_delta", signature: step.signature ?? `mock-signature-${id}-${index}` },
      });
    } else {
      const call = step.tool_call;
      yield namedEvent("content_block_start", {
        type: "content_block_start",
        index,
        content_block: {
          type: "tool_use",
          id: call.id ?? `toolu_mock_${id}_${++toolCount}`,
          name: call.name,
          input: {},
        },
      });
      for (const partial_json of splitChunks(toolArgsText(call.args), call.chunks)) {
        yield namedEvent("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json },
        });
      }
    }
    yield namedEvent("content_block_stop", { type: "content_block_stop", index });
    index++;
  });
  if (!finished) return;
  yield namedEvent("message_delta", {
    type: "message_delta",
    delta: { stop_reason: stopOf(reply), stop_sequence: null },
    usage: { output_tokens: usage.output },
  });
  yield namedEvent("message_stop", { type: "message_stop" });
}

const TYPE_BY_STATUS: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

export function anthropicError(reply: MockReply): { status: number; body: unknown } {
  const status = errorStatus(reply);
  const given = reply.error_type;
  let type = TYPE_BY_STATUS[status] ?? "api_error";
  let message = `mock ${type}`;
  if (isContextOverflow(given)) {
    type = "invalid_request_error";
    message = "prompt is too long: 212345 tokens > 200000 maximum";
  } else if (given && isTypeName(given)) {
    type = given;
    message = type === "overloaded_error" ? "Overloaded" : `mock ${type}`;
  } else if (given) {
    message = given;
  }
  return { status, body: { type: "error", error: { type, message }, request_id: "req_mock" } };
}
