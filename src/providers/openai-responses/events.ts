/** Responses API stream events → normalized events (one attempt). */
import type { ResponseStreamEvent, ResponseUsage } from "openai/resources/responses/responses";
import type { ProviderEvent, ProviderUsage, StopReason } from "../../contracts/provider.ts";
import { StreamEndedEarlyError, StreamErrorEvent } from "../classify-error.ts";

function responsesUsage(u: ResponseUsage | null | undefined): ProviderUsage {
  if (!u) return { input: 0, output: 0 };
  const cached = u.input_tokens_details?.cached_tokens ?? 0;
  const usage: ProviderUsage = { input: Math.max(0, u.input_tokens - cached), output: u.output_tokens };
  if (cached > 0) usage.cache_read = cached;
  return usage;
}

interface FunctionCallState {
  callId: string;
  argsSeen: boolean;
}

export async function* translateResponsesStream(
  stream: AsyncIterable<ResponseStreamEvent>,
): AsyncGenerator<ProviderEvent> {
  // Keyed by the output item id (`fc_…`); our tool call id is the item's `call_id`.
  const calls = new Map<string, FunctionCallState>();
  for await (const event of stream) {
    switch (event.type) {
      case "response.output_text.delta":
        if (event.delta) yield { type: "text_delta", text: event.delta };
        break;
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        if (event.delta) yield { type: "thinking_delta", text: event.delta };
        break;
      case "response.output_item.added":
        if (event.item.type === "function_call") {
          const callId = event.item.call_id;
          const call = { callId, argsSeen: false };
          calls.set(event.item.id ?? callId, call);
          yield { type: "tool_call_start", id: callId, name: event.item.name };
          if (event.item.arguments) {
            call.argsSeen = true;
            yield { type: "tool_call_delta", id: callId, args_delta: event.item.arguments };
          }
        }
        break;
      case "response.function_call_arguments.delta": {
        const call = calls.get(event.item_id);
        if (call && event.delta) {
          call.argsSeen = true;
          yield { type: "tool_call_delta", id: call.callId, args_delta: event.delta };
        }
        break;
      }
      case "response.output_item.done":
        // Servers that skip argument deltas still send the full arguments here.
        if (event.item.type === "function_call") {
          const call = calls.get(event.item.id ?? event.item.call_id);
          if (call && !call.argsSeen && event.item.arguments) {
            call.argsSeen = true;
            yield { type: "tool_call_delta", id: call.callId, args_delta: event.item.arguments };
          }
        }
        break;
      case "response.completed":
      case "response.incomplete": {
        const response = event.response;
        yield { type: "usage", usage: responsesUsage(response.usage) };
        let stop: StopReason = calls.size > 0 ? "tool_use" : "end_turn";
        if (event.type === "response.incomplete") {
          stop = response.incomplete_details?.reason === "max_output_tokens" ? "max_tokens" : stop;
        }
        yield { type: "done", stop_reason: stop };
        return;
      }
      case "response.failed": {
        const err = event.response.error;
        throw new StreamErrorEvent(
          err?.message ?? "response failed",
          err?.code ?? undefined,
          err?.code ?? undefined,
        );
      }
      case "error":
        throw new StreamErrorEvent(event.message, event.code ?? undefined, event.code ?? undefined);
      default:
        break;
    }
  }
  throw new StreamEndedEarlyError();
}
