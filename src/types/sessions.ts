/**
 * Session-first daemon commands (our addition, docs/protocol-additions.md): list durable
 * sessions, then activate one to get the agent that drives it. Daemon-level request/response,
 * no routing `agent_id`.
 */
import { type Static, Type } from "@sinclair/typebox";
import { payloadAgentId, requiredCommandId } from "./envelope.ts";

/** Provenance of a session created by `session_op: fork`. */
export const ForkProvenanceSchema = Type.Object(
  {
    fork_id: Type.String({ minLength: 1 }),
    source_session_id: Type.String({ minLength: 1 }),
    source_entry_id: Type.String({ minLength: 1 }),
  },
  { $id: "ForkProvenance" },
);
export type ForkProvenance = Static<typeof ForkProvenanceSchema>;

export const SessionSummarySchema = Type.Object(
  {
    session_id: Type.String({ minLength: 1 }),
    /** First user message, shortened; empty for a session without one. */
    title: Type.String(),
    cwd: Type.String(),
    /** Epoch milliseconds. */
    created_at: Type.Number(),
    updated_at: Type.Number(),
    entry_count: Type.Integer({ minimum: 0 }),
    fork: Type.Optional(ForkProvenanceSchema),
  },
  { $id: "SessionSummary" },
);
export type SessionSummary = Static<typeof SessionSummarySchema>;

export const SessionListCommandSchema = Type.Object(
  {
    type: Type.Literal("session.list"),
    id: requiredCommandId,
    /** Only sessions whose cwd is exactly this (canonicalized) directory. */
    cwd: Type.Optional(Type.String({ minLength: 1 })),
  },
  { $id: "SessionListCommand" },
);
export type SessionListCommand = Static<typeof SessionListCommandSchema>;

/** Newest `updated_at` first. */
export const SessionListResultSchema = Type.Object(
  { sessions: Type.Array(SessionSummarySchema) },
  { $id: "SessionListResult" },
);
export type SessionListResult = Static<typeof SessionListResultSchema>;

export const SessionActivateCommandSchema = Type.Object(
  {
    type: Type.Literal("session.activate"),
    id: requiredCommandId,
    session_id: Type.String({ minLength: 1 }),
  },
  { $id: "SessionActivateCommand" },
);
export type SessionActivateCommand = Static<typeof SessionActivateCommandSchema>;

export const SessionActivateResultSchema = Type.Object(
  { agent_id: payloadAgentId, session_id: Type.String({ minLength: 1 }) },
  { $id: "SessionActivateResult" },
);
export type SessionActivateResult = Static<typeof SessionActivateResultSchema>;
