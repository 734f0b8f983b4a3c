/**
 * Additive (docs/protocol-additions.md): the assistant message being streamed, as the deltas
 * so far have built it, so a client that attaches mid-stream renders what others already see.
 * `message_complete` replaces it with the final message.
 */
import { type Static, Type } from "@sinclair/typebox";
import { DeltaKindSchema } from "./stream-events.ts";

export const StreamingBlockSchema = Type.Object(
  {
    kind: DeltaKindSchema,
    /** text / thinking blocks: the text so far. */
    text: Type.Optional(Type.String()),
    /** tool_call blocks: set by the block's first delta. */
    tool_call_id: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    /** tool_call blocks: the JSON argument fragments so far, concatenated. */
    args_text: Type.Optional(Type.String()),
  },
  { $id: "StreamingBlock" },
);
export type StreamingBlock = Static<typeof StreamingBlockSchema>;

export const StreamingMessageSchema = Type.Object(
  {
    message_id: Type.String({ minLength: 1 }),
    blocks: Type.Array(StreamingBlockSchema),
  },
  { $id: "StreamingMessage" },
);
export type StreamingMessage = Static<typeof StreamingMessageSchema>;
