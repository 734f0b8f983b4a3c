/** Streaming and turn events (docs/protocol.md §6). */
import { type Static, Type } from "@sinclair/typebox";
import { UsageSchema } from "./agent-state.ts";
import { eventSeq, routingAgentId } from "./envelope.ts";
import { ErrorCodeSchema } from "./errors.ts";
import { ImageSchema, MessageSchema, ToolResultContentSchema } from "./messages.ts";
import { RenderDescriptorSchema } from "./render.ts";
import { SandboxModeSchema } from "./sandbox.ts";
import { compactionFields } from "./session-op.ts";

export const TurnStartEventSchema = Type.Object(
  {
    type: Type.Literal("turn_start"),
    agent_id: routingAgentId,
    seq: eventSeq,
    turn_id: Type.String({ minLength: 1 }),
  },
  { $id: "TurnStartEvent" },
);
export type TurnStartEvent = Static<typeof TurnStartEventSchema>;

export const DeltaKindSchema = Type.Union(
  [Type.Literal("text"), Type.Literal("tool_call"), Type.Literal("thinking")],
  { $id: "DeltaKind" },
);
export type DeltaKind = Static<typeof DeltaKindSchema>;

/**
 * Live-display delta for block `block_index` of message `message_id`. text/thinking carry
 * `text_delta`; a tool_call block's first delta carries `tool_call_id` + `name`, later ones
 * `args_delta` (JSON fragments: concatenate, parse when the block completes).
 */
export const MessageDeltaEventSchema = Type.Object(
  {
    type: Type.Literal("message_delta"),
    agent_id: routingAgentId,
    seq: eventSeq,
    message_id: Type.String({ minLength: 1 }),
    block_index: Type.Integer({ minimum: 0 }),
    kind: DeltaKindSchema,
    text_delta: Type.Optional(Type.String()),
    tool_call_id: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    args_delta: Type.Optional(Type.String()),
  },
  { $id: "MessageDeltaEvent" },
);
export type MessageDeltaEvent = Static<typeof MessageDeltaEventSchema>;

/** Final snapshot of a message; clients reconcile their delta-built copy against it. */
export const MessageCompleteEventSchema = Type.Object(
  {
    type: Type.Literal("message_complete"),
    agent_id: routingAgentId,
    seq: eventSeq,
    message_id: Type.String({ minLength: 1 }),
    message: MessageSchema,
  },
  { $id: "MessageCompleteEvent" },
);
export type MessageCompleteEvent = Static<typeof MessageCompleteEventSchema>;

/** A tool is about to execute (after the permission gate allowed it). */
export const ToolCallEventSchema = Type.Object(
  {
    type: Type.Literal("tool_call"),
    agent_id: routingAgentId,
    seq: eventSeq,
    tool_call_id: Type.String({ minLength: 1 }),
    name: Type.String({ minLength: 1 }),
    args: Type.Record(Type.String(), Type.Unknown()),
    render: Type.Optional(RenderDescriptorSchema),
    /** Mirrors the tool's isReadOnly; absent means treat as mutating. */
    read_only: Type.Optional(Type.Boolean()),
  },
  { $id: "ToolCallEvent" },
);
export type ToolCallEvent = Static<typeof ToolCallEventSchema>;

export const ToolResultEventSchema = Type.Object(
  {
    type: Type.Literal("tool_result"),
    agent_id: routingAgentId,
    seq: eventSeq,
    tool_call_id: Type.String({ minLength: 1 }),
    content: ToolResultContentSchema,
    is_error: Type.Boolean(),
    exit_code: Type.Optional(Type.Integer()),
    duration_ms: Type.Optional(Type.Number({ minimum: 0 })),
    render: Type.Optional(RenderDescriptorSchema),
    /** Additive: images the tool produced, as in the tool_result content block. */
    images: Type.Optional(Type.Array(ImageSchema)),
    /** Additive: id of the tool-result message this adds to the live window. */
    message_id: Type.Optional(Type.String({ minLength: 1 })),
    /** Additive (protocol-additions §18): the sandbox mode a `bash` command ran in; `off` = unconfined. */
    sandbox: Type.Optional(SandboxModeSchema),
  },
  { $id: "ToolResultEvent" },
);
export type ToolResultEvent = Static<typeof ToolResultEventSchema>;

/**
 * Additive (docs/protocol-additions.md): live output of a running tool (bash), delta-only,
 * for display. The `tool_result` that follows is authoritative; a client that ignores this
 * event loses nothing but the live view.
 */
export const ToolOutputEventSchema = Type.Object(
  {
    type: Type.Literal("tool_output"),
    agent_id: routingAgentId,
    seq: eventSeq,
    tool_call_id: Type.String({ minLength: 1 }),
    text_delta: Type.String(),
  },
  { $id: "ToolOutputEvent" },
);
export type ToolOutputEvent = Static<typeof ToolOutputEventSchema>;

/** `completed` ran to its end; `aborted` by a client; `interrupted` by the runtime stopping; `error` failed. */
export const TurnEndReasonSchema = Type.Union(
  [Type.Literal("completed"), Type.Literal("aborted"), Type.Literal("interrupted"), Type.Literal("error")],
  { $id: "TurnEndReason" },
);
export type TurnEndReason = Static<typeof TurnEndReasonSchema>;

export const TurnEndEventSchema = Type.Object(
  {
    type: Type.Literal("turn_end"),
    agent_id: routingAgentId,
    seq: eventSeq,
    turn_id: Type.String({ minLength: 1 }),
    usage: Type.Optional(UsageSchema),
    /** Additive: how the turn ended (docs/protocol-additions.md §1.3). */
    end_reason: Type.Optional(TurnEndReasonSchema),
    /** Additive: who aborted it, when `end_reason` is `aborted` and the abort named its source. */
    aborted_by: Type.Optional(Type.String({ minLength: 1 })),
  },
  { $id: "TurnEndEvent" },
);
export type TurnEndEvent = Static<typeof TurnEndEventSchema>;

/** Per provider call; the Usage fields sit at the top level of the message. */
export const UsageEventSchema = Type.Object(
  {
    type: Type.Literal("usage"),
    agent_id: routingAgentId,
    seq: eventSeq,
    ...UsageSchema.properties,
    /** Additive (protocol-additions §22): the turn the call belongs to (the cost ledger's key). */
    turn_id: Type.Optional(Type.String({ minLength: 1 })),
  },
  { $id: "UsageEvent" },
);
export type UsageEvent = Static<typeof UsageEventSchema>;

export const CompactionEventSchema = Type.Object(
  {
    type: Type.Literal("compaction"),
    agent_id: routingAgentId,
    seq: eventSeq,
    ...compactionFields,
    /** Additive: the message that now leads the live window in place of the summarized span. */
    summary_message: Type.Optional(MessageSchema),
    /** Additive: the first message of the live window kept after the summary (absent: none kept). */
    first_kept_message_id: Type.Optional(Type.String({ minLength: 1 })),
  },
  { $id: "CompactionEvent" },
);
export type CompactionEvent = Static<typeof CompactionEventSchema>;

/** Async failure mid-turn; `fatal: true` means the agent cannot continue. */
export const ErrorEventSchema = Type.Object(
  {
    type: Type.Literal("error"),
    agent_id: routingAgentId,
    seq: eventSeq,
    code: ErrorCodeSchema,
    message: Type.String(),
    fatal: Type.Optional(Type.Boolean()),
    /** Our addition (docs/protocol-additions.md §17): `status` is a provider's HTTP status (401, 429 …). */
    data: Type.Optional(Type.Object({ status: Type.Optional(Type.Integer()) })),
  },
  { $id: "ErrorEvent" },
);
export type ErrorEvent = Static<typeof ErrorEventSchema>;
