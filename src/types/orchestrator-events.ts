/**
 * Registry events (docs/protocol.md §11.2). Orchestrator-level: `agent_id` is payload naming the
 * agent that changed, not routing.
 */
import { type Static, Type } from "@sinclair/typebox";
import { AgentInfoSchema, RuntimeStateSchema } from "./agent-info.ts";
import { AgentStatusSchema } from "./agent-state.ts";
import { eventSeq, payloadAgentId } from "./envelope.ts";

export const AgentSpawnedEventSchema = Type.Object(
  { type: Type.Literal("agent_spawned"), seq: eventSeq, agent_id: payloadAgentId, info: AgentInfoSchema },
  { $id: "AgentSpawnedEvent" },
);
export type AgentSpawnedEvent = Static<typeof AgentSpawnedEventSchema>;

/** A Runtime generation died unexpectedly; the durable agent remains. */
export const AgentExitedEventSchema = Type.Object(
  {
    type: Type.Literal("agent_exited"),
    seq: eventSeq,
    agent_id: payloadAgentId,
    runtime_state: Type.Literal("failed"),
    reason: Type.String(),
    exit_code: Type.Optional(Type.Integer()),
  },
  { $id: "AgentExitedEvent" },
);
export type AgentExitedEvent = Static<typeof AgentExitedEventSchema>;

export const AgentStatusChangedEventSchema = Type.Object(
  {
    type: Type.Literal("agent_status_changed"),
    seq: eventSeq,
    agent_id: payloadAgentId,
    status: AgentStatusSchema,
    runtime_state: RuntimeStateSchema,
    detail: Type.Optional(Type.String()),
  },
  { $id: "AgentStatusChangedEvent" },
);
export type AgentStatusChangedEvent = Static<typeof AgentStatusChangedEventSchema>;

export const ActivityPhaseSchema = Type.Union(
  [
    Type.Literal("idle"),
    Type.Literal("thinking"),
    Type.Literal("streaming"),
    Type.Literal("tool"),
    Type.Literal("waiting"),
    Type.Literal("compacting"),
    Type.Literal("retrying"),
    Type.Literal("error"),
  ],
  { $id: "ActivityPhase" },
);
export type ActivityPhase = Static<typeof ActivityPhaseSchema>;

/**
 * Global sanitized overview, broadcast without attach. Never carries prompts, model text,
 * tool arguments/results, paths or transcripts.
 */
export const AgentActivityEventSchema = Type.Object(
  {
    type: Type.Literal("agent_activity"),
    seq: eventSeq,
    agent_id: payloadAgentId,
    /** Epoch milliseconds. */
    timestamp: Type.Number(),
    phase: ActivityPhaseSchema,
    status: AgentStatusSchema,
    tool_name: Type.Optional(Type.String()),
  },
  { $id: "AgentActivityEvent" },
);
export type AgentActivityEvent = Static<typeof AgentActivityEventSchema>;
