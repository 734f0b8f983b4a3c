/**
 * Conversation messages and their content blocks: what a session stores, what `sync` carries
 * and what the providers translate to and from each model's format.
 */
import { type Static, Type } from "@sinclair/typebox";

export const ImageSchema = Type.Object(
  { type: Type.Literal("image"), data: Type.String(), mime_type: Type.String({ minLength: 1 }) },
  { $id: "Image" },
);
export type Image = Static<typeof ImageSchema>;

export const ToolResultContentSchema = Type.Union(
  [
    Type.Object({ kind: Type.Literal("text"), text: Type.String() }),
    Type.Object({ kind: Type.Literal("json"), value: Type.Unknown() }),
    Type.Object({ kind: Type.Literal("error"), message: Type.String() }),
  ],
  { $id: "ToolResultContent" },
);
export type ToolResultContent = Static<typeof ToolResultContentSchema>;

export const TextBlockSchema = Type.Object({ type: Type.Literal("text"), text: Type.String() });
export const ToolCallBlockSchema = Type.Object({
  type: Type.Literal("tool_call"),
  /** Minted by the runtime, unique per call: the `tool_call_id` of every event about the call. */
  id: Type.String(),
  name: Type.String(),
  args: Type.Record(Type.String(), Type.Unknown()),
  /**
   * Additive: the id the model server gave the call, which servers may repeat across responses.
   * Sent back only to the model (src/providers); absent in sessions written before, where `id`
   * is both.
   */
  provider_id: Type.Optional(Type.String()),
});
export const ToolResultBlockSchema = Type.Object({
  type: Type.Literal("tool_result"),
  tool_call_id: Type.String(),
  content: ToolResultContentSchema,
  is_error: Type.Optional(Type.Boolean()),
  /** Additive: structured fields the history seam turns into `[exit code: N]` for the model. */
  exit_code: Type.Optional(Type.Number()),
  /** Additive: images a tool produced (e.g. `read` of a PNG), sent to the model as image input. */
  images: Type.Optional(Type.Array(ImageSchema)),
});
export const ThinkingBlockSchema = Type.Object({
  type: Type.Literal("thinking"),
  text: Type.String(),
  /** Additive: provider signature needed to replay signed thinking (Anthropic). */
  signature: Type.Optional(Type.String()),
});
/**
 * Images travel inside user messages (prompt `images`) and `read` results. Additive
 * (docs/protocol-additions.md §1).
 */
export const ImageBlockSchema = Type.Object({
  type: Type.Literal("image"),
  data: Type.String(),
  mime_type: Type.String(),
});

export const ContentBlockSchema = Type.Union(
  [TextBlockSchema, ToolCallBlockSchema, ToolResultBlockSchema, ThinkingBlockSchema, ImageBlockSchema],
  { $id: "ContentBlock" },
);
export type ContentBlock = Static<typeof ContentBlockSchema>;
export type TextBlock = Static<typeof TextBlockSchema>;
export type ToolCallBlock = Static<typeof ToolCallBlockSchema>;
export type ToolResultBlock = Static<typeof ToolResultBlockSchema>;
export type ThinkingBlock = Static<typeof ThinkingBlockSchema>;
export type ImageBlock = Static<typeof ImageBlockSchema>;

export const MessageSchema = Type.Object(
  {
    id: Type.String(),
    role: Type.Union([Type.Literal("user"), Type.Literal("assistant")]),
    content: Type.Array(ContentBlockSchema),
    /**
     * Additive: when the runtime made the message (ms since the epoch), for clients to show;
     * absent on messages of older sessions and on tool-result and summary messages.
     */
    ts: Type.Optional(Type.Number()),
  },
  { $id: "Message" },
);
export type Message = Static<typeof MessageSchema>;
