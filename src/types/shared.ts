/**
 * Shared wire types (docs/protocol.md §12). TypeBox schemas are the single source: static TS
 * types come from `Static<>`, runtime validation from the compiled schema.
 */
import { type Static, Type } from "@sinclair/typebox";

export const ImageSchema = Type.Object(
  { type: Type.Literal("image"), data: Type.String(), mime_type: Type.String({ minLength: 1 }) },
  { $id: "Image" },
);
export type Image = Static<typeof ImageSchema>;

export const ModelDescriptorSchema = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    provider: Type.String({ minLength: 1 }),
    model: Type.String({ minLength: 1 }),
    context_window: Type.Optional(Type.Number()),
    /**
     * In `list_models` only (protocol-additions §16): why no provider can serve this model (no API
     * key, bad base URL); absent when one can. Choosing it is refused with the same text.
     */
    unavailable: Type.Optional(Type.String()),
  },
  { $id: "ModelDescriptor" },
);
export type ModelDescriptor = Static<typeof ModelDescriptorSchema>;

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
  },
  { $id: "Message" },
);
export type Message = Static<typeof MessageSchema>;

/** Unified-diff hunk (pinned here: the standard unified-diff shape; docs/protocol.md, `Hunk`). */
export const HunkSchema = Type.Object(
  {
    old_start: Type.Number(),
    old_lines: Type.Number(),
    new_start: Type.Number(),
    new_lines: Type.Number(),
    lines: Type.Array(Type.String()),
  },
  { $id: "Hunk" },
);
export type Hunk = Static<typeof HunkSchema>;

export const TreeNodeSchema = Type.Recursive(
  (Self) =>
    Type.Object({
      name: Type.String(),
      kind: Type.Optional(Type.Union([Type.Literal("file"), Type.Literal("dir")])),
      children: Type.Optional(Type.Array(Self)),
    }),
  { $id: "TreeNode" },
);
export type TreeNode = Static<typeof TreeNodeSchema>;

export const RenderDescriptorSchema = Type.Union(
  [
    Type.Object({ kind: Type.Literal("text"), text: Type.String() }),
    Type.Object({
      kind: Type.Literal("kv"),
      pairs: Type.Array(Type.Object({ k: Type.String(), v: Type.String() })),
    }),
    Type.Object({ kind: Type.Literal("diff"), path: Type.String(), hunks: Type.Array(HunkSchema) }),
    Type.Object({ kind: Type.Literal("tree"), root: TreeNodeSchema }),
    Type.Object({
      kind: Type.Literal("progress"),
      label: Type.String(),
      current: Type.Number(),
      total: Type.Optional(Type.Number()),
    }),
    Type.Object({
      kind: Type.Literal("status"),
      label: Type.String(),
      tone: Type.Union([Type.Literal("info"), Type.Literal("warn"), Type.Literal("error")]),
    }),
    Type.Object({
      kind: Type.Literal("command"),
      command: Type.String(),
      exitCode: Type.Optional(Type.Number()),
      durationMs: Type.Optional(Type.Number()),
    }),
    Type.Object({
      kind: Type.Literal("path_list"),
      paths: Type.Array(
        Type.Object({
          path: Type.String(),
          kind: Type.Union([Type.Literal("file"), Type.Literal("dir")]),
          hint: Type.Optional(Type.String()),
        }),
      ),
    }),
    Type.Object({
      kind: Type.Literal("code"),
      path: Type.Optional(Type.String()),
      lang: Type.Optional(Type.String()),
      text: Type.String(),
    }),
  ],
  { $id: "RenderDescriptor" },
);
export type RenderDescriptor = Static<typeof RenderDescriptorSchema>;

export const UsageSchema = Type.Object(
  {
    input: Type.Number(),
    output: Type.Number(),
    cache_read: Type.Optional(Type.Number()),
    cache_write: Type.Optional(Type.Number()),
    cost: Type.Optional(Type.Number()),
    context_tokens: Type.Optional(Type.Number()),
    model: Type.Optional(Type.String()),
  },
  { $id: "Usage" },
);
export type Usage = Static<typeof UsageSchema>;

export const AgentStatusSchema = Type.Union(
  [
    Type.Literal("idle"),
    Type.Literal("streaming"),
    Type.Literal("waiting_for_permission"),
    Type.Literal("waiting_for_ui"),
    Type.Literal("compacting"),
    Type.Literal("error"),
  ],
  { $id: "AgentStatus" },
);
export type AgentStatus = Static<typeof AgentStatusSchema>;
