/**
 * Folds `message_delta` events into the message being streamed (delta-only wire,
 * docs/protocol.md §6).
 */
import type { MessageDeltaEvent } from "../types/stream-events.ts";
import type { StreamingBlock, StreamingMessage } from "../types/streaming-message.ts";

export function applyDelta(
  current: StreamingMessage | undefined,
  delta: MessageDeltaEvent,
): StreamingMessage {
  const blocks = current?.message_id === delta.message_id ? current.blocks.slice() : [];
  // A block index past the end (a provider that skipped one) is padded, never left as a hole.
  while (blocks.length < delta.block_index) blocks.push({ kind: delta.kind });
  blocks[delta.block_index] = extend(blocks[delta.block_index] ?? { kind: delta.kind }, delta);
  return { message_id: delta.message_id, blocks };
}

function extend(block: StreamingBlock, delta: MessageDeltaEvent): StreamingBlock {
  const next: StreamingBlock = { ...block, kind: delta.kind };
  if (delta.text_delta !== undefined) next.text = (block.text ?? "") + delta.text_delta;
  if (delta.tool_call_id !== undefined) next.tool_call_id = delta.tool_call_id;
  if (delta.name !== undefined) next.name = delta.name;
  if (delta.args_delta !== undefined) next.args_text = (block.args_text ?? "") + delta.args_delta;
  return next;
}
