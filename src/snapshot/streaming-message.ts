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

/**
 * `deltas` folded in order, exactly as `applyDelta` one at a time would (the same blocks, their
 * keys in the same order), but with one copy of each block touched instead of a copy of the
 * message per delta, and each block's text joined once. The daemon folds the deltas it
 * forwarded unparsed this way, when something reads its snapshot.
 */
export function applyDeltas(
  current: StreamingMessage | undefined,
  deltas: readonly MessageDeltaEvent[],
): StreamingMessage | undefined {
  let messageId = current?.message_id;
  let blocks: StreamingBlock[] = current?.blocks ?? [];
  let copied = false;
  /** Blocks this fold made (free to change), with the text and argument fragments not yet joined. */
  let touched = new Map<StreamingBlock, { text: string[]; args: string[] }>();
  for (const delta of deltas) {
    if (delta.message_id !== messageId) {
      messageId = delta.message_id;
      blocks = [];
      copied = true;
      touched = new Map();
    } else if (!copied) {
      blocks = blocks.slice();
      copied = true;
    }
    while (blocks.length < delta.block_index) blocks.push({ kind: delta.kind });
    const found = blocks[delta.block_index];
    let block = found ?? { kind: delta.kind };
    let parts = found ? touched.get(found) : undefined;
    if (!parts) {
      block = { ...block };
      parts = { text: [], args: [] };
      touched.set(block, parts);
      blocks[delta.block_index] = block;
    }
    block.kind = delta.kind;
    if (delta.text_delta !== undefined) {
      block.text ??= "";
      parts.text.push(delta.text_delta);
    }
    if (delta.tool_call_id !== undefined) block.tool_call_id = delta.tool_call_id;
    if (delta.name !== undefined) block.name = delta.name;
    if (delta.args_delta !== undefined) {
      block.args_text ??= "";
      parts.args.push(delta.args_delta);
    }
  }
  if (messageId === undefined) return current;
  for (const [block, parts] of touched) {
    if (parts.text.length > 0) block.text = (block.text ?? "") + parts.text.join("");
    if (parts.args.length > 0) block.args_text = (block.args_text ?? "") + parts.args.join("");
  }
  return copied ? { message_id: messageId, blocks } : current;
}
