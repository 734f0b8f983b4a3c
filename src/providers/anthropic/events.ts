/** Anthropic raw stream events → normalized `ProviderEvent`s (one attempt). */
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import type { ProviderEvent, ProviderUsage, StopReason } from "../../contracts/provider.ts";
import { StreamEndedEarlyError, StreamErrorEvent } from "../classify-error.ts";

function mapStopReason(reason: string | null | undefined): StopReason {
  if (reason === "tool_use") return "tool_use";
  if (reason === "max_tokens" || reason === "model_context_window_exceeded") return "max_tokens";
  return "end_turn";
}

/** Throws `StreamEndedEarlyError` if the stream ends before `message_stop`. */
export async function* translateAnthropicStream(
  stream: AsyncIterable<
    RawMessageStreamEvent | { type: "error"; error?: { type?: string; message?: string } }
  >,
): AsyncGenerator<ProviderEvent> {
  const toolIds = new Map<number, string>();
  const usage: ProviderUsage = { input: 0, output: 0 };
  let stopReason: StopReason = "end_turn";
  let sawToolUse = false;
  for await (const event of stream) {
    switch (event.type) {
      case "message_start": {
        const u = event.message.usage;
        usage.input = u.input_tokens ?? 0;
        usage.output = u.output_tokens ?? 0;
        if (u.cache_read_input_tokens) usage.cache_read = u.cache_read_input_tokens;
        if (u.cache_creation_input_tokens) usage.cache_write = u.cache_creation_input_tokens;
        break;
      }
      case "content_block_start": {
        const block = event.content_block;
        if (block.type === "tool_use") {
          sawToolUse = true;
          toolIds.set(event.index, block.id);
          yield { type: "tool_call_start", id: block.id, name: block.name };
        } else if (block.type === "text" && block.text) {
          yield { type: "text_delta", text: block.text };
        } else if (block.type === "thinking" && block.thinking) {
          yield { type: "thinking_delta", text: block.thinking };
        }
        break;
      }
      case "content_block_delta": {
        const delta = event.delta;
        if (delta.type === "text_delta") yield { type: "text_delta", text: delta.text };
        else if (delta.type === "thinking_delta") yield { type: "thinking_delta", text: delta.thinking };
        else if (delta.type === "signature_delta")
          yield { type: "thinking_signature", signature: delta.signature };
        else if (delta.type === "input_json_delta") {
          const id = toolIds.get(event.index);
          if (id !== undefined && delta.partial_json)
            yield { type: "tool_call_delta", id, args_delta: delta.partial_json };
        }
        break;
      }
      case "message_delta": {
        if (event.delta.stop_reason) stopReason = mapStopReason(event.delta.stop_reason);
        const u = event.usage;
        if (typeof u.output_tokens === "number") usage.output = u.output_tokens;
        if (typeof u.input_tokens === "number" && u.input_tokens > 0) usage.input = u.input_tokens;
        if (u.cache_read_input_tokens) usage.cache_read = u.cache_read_input_tokens;
        if (u.cache_creation_input_tokens) usage.cache_write = u.cache_creation_input_tokens;
        break;
      }
      case "message_stop":
        yield { type: "usage", usage };
        yield {
          type: "done",
          stop_reason: stopReason === "end_turn" && sawToolUse ? "tool_use" : stopReason,
        };
        return;
      case "error":
        throw new StreamErrorEvent(event.error?.message ?? "stream error", event.error?.type, undefined);
      default:
        break;
    }
  }
  throw new StreamEndedEarlyError();
}
