/**
 * Per-agent drive and control commands (docs/protocol.md §10.1). `session_op` lives in
 * session-op.ts, `permission_response` / `ui_response` in permissions.ts.
 */
import { type Static, Type } from "@sinclair/typebox";
import { optionalCommandId, requiredCommandId, routingAgentId } from "./envelope.ts";
import { ImageSchema } from "./messages.ts";
import { SandboxModeSchema } from "./sandbox.ts";

export const StreamingBehaviorSchema = Type.Union([Type.Literal("steer"), Type.Literal("follow_up")], {
  $id: "StreamingBehavior",
});
export type StreamingBehavior = Static<typeof StreamingBehaviorSchema>;

/** An empty message with no images is refused by the validator's cross-field rule. */
export const PromptCommandSchema = Type.Object(
  {
    type: Type.Literal("prompt"),
    id: optionalCommandId,
    agent_id: routingAgentId,
    message: Type.String(),
    images: Type.Optional(Type.Array(ImageSchema)),
    /** Required while the agent is mid-turn; omitted when idle. */
    streaming_behavior: Type.Optional(StreamingBehaviorSchema),
  },
  { $id: "PromptCommand" },
);
export type PromptCommand = Static<typeof PromptCommandSchema>;

export const SteerCommandSchema = Type.Object(
  {
    type: Type.Literal("steer"),
    id: optionalCommandId,
    agent_id: routingAgentId,
    message: Type.String(),
    images: Type.Optional(Type.Array(ImageSchema)),
    /** Additive: deliver only into this turn; `CONFLICT` when it is not the one running (never a new turn). */
    turn_id: Type.Optional(Type.String({ minLength: 1 })),
  },
  { $id: "SteerCommand" },
);
export type SteerCommand = Static<typeof SteerCommandSchema>;

export const AbortCommandSchema = Type.Object(
  {
    type: Type.Literal("abort"),
    id: optionalCommandId,
    agent_id: routingAgentId,
    /**
     * Additive: who aborts, echoed in the turn's `turn_end.aborted_by`. The daemon sets it to the
     * aborting client (as for `permission_response.source`); without it, the connection's id.
     */
    source: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { $id: "AbortCommand" },
);
export type AbortCommand = Static<typeof AbortCommandSchema>;

export const SetModeCommandSchema = Type.Object(
  {
    type: Type.Literal("set_mode"),
    id: optionalCommandId,
    agent_id: routingAgentId,
    mode: Type.String({ minLength: 1 }),
  },
  { $id: "SetModeCommand" },
);
export type SetModeCommand = Static<typeof SetModeCommandSchema>;

/**
 * Our addition (protocol-additions §18): a stricter sandbox mode applies at once; a looser one
 * is an escalation the person must allow (a `permission_request`), so the response may come
 * back `pending`.
 */
export const SetSandboxCommandSchema = Type.Object(
  {
    type: Type.Literal("set_sandbox"),
    id: optionalCommandId,
    agent_id: routingAgentId,
    mode: SandboxModeSchema,
  },
  { $id: "SetSandboxCommand" },
);
export type SetSandboxCommand = Static<typeof SetSandboxCommandSchema>;

export const ListModesCommandSchema = Type.Object(
  { type: Type.Literal("list_modes"), id: optionalCommandId, agent_id: routingAgentId },
  { $id: "ListModesCommand" },
);
export type ListModesCommand = Static<typeof ListModesCommandSchema>;

export const ListModelsCommandSchema = Type.Object(
  { type: Type.Literal("list_models"), id: optionalCommandId, agent_id: routingAgentId },
  { $id: "ListModelsCommand" },
);
export type ListModelsCommand = Static<typeof ListModelsCommandSchema>;

export const SetModelCommandSchema = Type.Object(
  {
    type: Type.Literal("set_model"),
    id: optionalCommandId,
    agent_id: routingAgentId,
    /** A catalog id, `provider/model`. */
    model: Type.String({ minLength: 1 }),
  },
  { $id: "SetModelCommand" },
);
export type SetModelCommand = Static<typeof SetModelCommandSchema>;

export const ListReasoningLevelsCommandSchema = Type.Object(
  { type: Type.Literal("list_reasoning_levels"), id: requiredCommandId, agent_id: routingAgentId },
  { $id: "ListReasoningLevelsCommand" },
);
export type ListReasoningLevelsCommand = Static<typeof ListReasoningLevelsCommandSchema>;

export const SetReasoningLevelCommandSchema = Type.Object(
  {
    type: Type.Literal("set_reasoning_level"),
    id: requiredCommandId,
    agent_id: routingAgentId,
    /** Active model descriptor id: an optimistic-concurrency precondition (stale → CONFLICT). */
    model: Type.String({ minLength: 1 }),
    effort: Type.String({ minLength: 1 }),
  },
  { $id: "SetReasoningLevelCommand" },
);
export type SetReasoningLevelCommand = Static<typeof SetReasoningLevelCommandSchema>;
