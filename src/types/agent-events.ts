/**
 * Per-agent lifecycle and control events (docs/protocol.md §2, §11.1).
 * Streaming and turn events live in stream-events.ts, permission/UI events in permissions.ts.
 */
import { type Static, Type } from "@sinclair/typebox";
import { modelSwitchFields, reasoningSwitchFields } from "./agent-results.ts";
import { AgentStatusSchema, UsageSchema } from "./agent-state.ts";
import { BudgetStateSchema } from "./budget.ts";
import { ModelDescriptorSchema } from "./controls.ts";
import { eventSeq, routingAgentId } from "./envelope.ts";
import { McpServerStatusSchema } from "./mcp-status.ts";
import { MessageSchema } from "./messages.ts";
import { PermissionRequestSchema, UiRequestSchema } from "./permissions.ts";
import { RenderDescriptorSchema } from "./render.ts";
import { SandboxModeSchema, SandboxStateSchema } from "./sandbox.ts";
import { StreamingMessageSchema } from "./streaming-message.ts";
import { TurnFailureSchema, TurnRetrySchema } from "./turn-failures.ts";

/** First message on every connection; connection-scoped, so it never carries `agent_id`. */
export const HelloEventSchema = Type.Object(
  {
    type: Type.Literal("hello"),
    seq: eventSeq,
    protocol_version: Type.String({ minLength: 1 }),
    server_version: Type.String(),
    capabilities: Type.Array(Type.String()),
  },
  { $id: "HelloEvent" },
);
export type HelloEvent = Static<typeof HelloEventSchema>;

export const LiveWindowSchema = Type.Object(
  {
    /** Post-compaction messages, oldest first. */
    messages: Type.Array(MessageSchema),
    compaction_index: Type.Optional(Type.Integer({ minimum: 0 })),
    /** Additive: the token figures of that compaction, so a client attaching later shows them too. */
    compaction_tokens: Type.Optional(
      Type.Object({ before: Type.Integer({ minimum: 0 }), after: Type.Integer({ minimum: 0 }) }),
    ),
    /**
     * Additive: the failed and interrupted turns of the window, oldest first, each drawn after
     * its `after_message_id`; never sent to the model. Absent when none.
     */
    failures: Type.Optional(Type.Array(TurnFailureSchema)),
  },
  { $id: "LiveWindow" },
);
export type LiveWindow = Static<typeof LiveWindowSchema>;

/**
 * Additive: what the `tool_call` and `tool_result` events said about one call of the live
 * window beyond its messages (render descriptors, timing), so a client attaching later draws
 * the call as a live one did. `live_output` is the tail of its `tool_output` while it runs.
 */
export const ToolCallRecordSchema = Type.Object(
  {
    tool_call_id: Type.String({ minLength: 1 }),
    name: Type.Optional(Type.String()),
    read_only: Type.Optional(Type.Boolean()),
    call_render: Type.Optional(RenderDescriptorSchema),
    result_render: Type.Optional(RenderDescriptorSchema),
    exit_code: Type.Optional(Type.Integer()),
    duration_ms: Type.Optional(Type.Number({ minimum: 0 })),
    live_output: Type.Optional(Type.String()),
    /** The sandbox mode a `bash` command ran in (`tool_result.sandbox`). */
    sandbox: Type.Optional(SandboxModeSchema),
  },
  { $id: "ToolCallRecord" },
);
export type ToolCallRecord = Static<typeof ToolCallRecordSchema>;

/** Authoritative bootstrap after `agent.attach` or a direct `hello` (docs/protocol.md §5.4). */
export const SyncEventSchema = Type.Object(
  {
    type: Type.Literal("sync"),
    agent_id: routingAgentId,
    seq: eventSeq,
    status: AgentStatusSchema,
    /** The agent's authoritative active mode. */
    mode: Type.String(),
    /** The attached runtime's feature set; gate model/mode controls on these strings. */
    capabilities: Type.Optional(Type.Array(Type.String())),
    /** Child-runtime generation token; increments when a replacement process takes over. */
    runtime_epoch: Type.Optional(Type.Integer({ minimum: 0 })),
    live_window: LiveWindowSchema,
    pending_requests: Type.Array(Type.Union([PermissionRequestSchema, UiRequestSchema])),
    /** Additive: the session this agent writes (fork, resume and `session.activate` name it). */
    session_id: Type.Optional(Type.String({ minLength: 1 })),
    /** Additive: the active model, as `list_models` describes it. */
    model: Type.Optional(ModelDescriptorSchema),
    /** Additive: the active model's reasoning effort, when the model has levels. */
    reasoning_level: Type.Optional(Type.String()),
    /** Additive: the turn in flight, if any. */
    turn_id: Type.Optional(Type.String({ minLength: 1 })),
    /** Additive: the assistant message being streamed (its deltas so far), if any. */
    streaming_message: Type.Optional(StreamingMessageSchema),
    /** Additive: usage summed over this runtime's provider calls. */
    usage: Type.Optional(UsageSchema),
    /** Additive: per tool call of the live window, its descriptors and timing, oldest first. */
    tool_calls: Type.Optional(Type.Array(ToolCallRecordSchema)),
    /** Additive: the provider retry in progress, if any (the newest `turn_retry`). */
    retry: Type.Optional(TurnRetrySchema),
    /** Additive (protocol-additions §18): the OS sandbox the agent's commands run in. */
    sandbox: Type.Optional(SandboxStateSchema),
    /** Additive (protocol-additions §19): the agent's MCP servers, once the first turn starts them. */
    mcp_servers: Type.Optional(Type.Array(McpServerStatusSchema)),
    /** Additive (protocol-additions §22): the agent's spending against its limits. */
    budget: Type.Optional(BudgetStateSchema),
  },
  { $id: "SyncEvent" },
);
export type SyncEvent = Static<typeof SyncEventSchema>;

export const StatusEventSchema = Type.Object(
  {
    type: Type.Literal("status"),
    agent_id: routingAgentId,
    seq: eventSeq,
    status: AgentStatusSchema,
    detail: Type.Optional(Type.String()),
  },
  { $id: "StatusEvent" },
);
export type StatusEvent = Static<typeof StatusEventSchema>;

/** Emitted only when `set_mode` really changed the mode; an idempotent set is silent. */
export const ModeChangedEventSchema = Type.Object(
  {
    type: Type.Literal("mode_changed"),
    agent_id: routingAgentId,
    seq: eventSeq,
    previous_mode: Type.String(),
    mode: Type.String(),
  },
  { $id: "ModeChangedEvent" },
);
export type ModeChangedEvent = Static<typeof ModeChangedEventSchema>;

/** Additive (protocol-additions §18): the agent's sandbox changed (`set_sandbox`). */
export const SandboxChangedEventSchema = Type.Object(
  {
    type: Type.Literal("sandbox_changed"),
    agent_id: routingAgentId,
    seq: eventSeq,
    sandbox: SandboxStateSchema,
  },
  { $id: "SandboxChangedEvent" },
);
export type SandboxChangedEvent = Static<typeof SandboxChangedEventSchema>;

export const ModelChangedEventSchema = Type.Object(
  {
    type: Type.Literal("model_changed"),
    agent_id: routingAgentId,
    seq: eventSeq,
    ...modelSwitchFields,
    /** The active model's post-switch capabilities (additive in the spec). */
    capabilities: Type.Optional(Type.Array(Type.String())),
    /** Additive: the new model's reasoning effort, when it has levels. */
    reasoning_level: Type.Optional(Type.String()),
  },
  { $id: "ModelChangedEvent" },
);
export type ModelChangedEvent = Static<typeof ModelChangedEventSchema>;

export const ReasoningLevelChangedEventSchema = Type.Object(
  {
    type: Type.Literal("reasoning_level_changed"),
    agent_id: routingAgentId,
    seq: eventSeq,
    ...reasoningSwitchFields,
  },
  { $id: "ReasoningLevelChangedEvent" },
);
export type ReasoningLevelChangedEvent = Static<typeof ReasoningLevelChangedEventSchema>;

/**
 * Additive: an abort (from any client, or the daemon clearing a subagent's undelivered steer)
 * dropped this many queued steer/follow-up messages; they will never be delivered.
 */
export const QueueDroppedEventSchema = Type.Object(
  {
    type: Type.Literal("queue_dropped"),
    agent_id: routingAgentId,
    seq: eventSeq,
    count: Type.Integer({ minimum: 1 }),
  },
  { $id: "QueueDroppedEvent" },
);
export type QueueDroppedEvent = Static<typeof QueueDroppedEventSchema>;
