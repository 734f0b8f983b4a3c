/**
 * Our additions to the registry (docs/protocol-additions.md §15): renaming and deleting a
 * durable agent, and the events that tell every client about it. Daemon connections only;
 * `agent_id` is payload naming the agent, not routing.
 */
import { type Static, Type } from "@sinclair/typebox";
import { AgentInfoSchema } from "./agent-info.ts";
import { eventSeq, payloadAgentId, requiredCommandId } from "./envelope.ts";

/** An agent's name is one line a list can show: bounded, so a client cannot grow every manifest. */
export const AGENT_NAME_MAX = 200;

export const AgentRenameCommandSchema = Type.Object(
  {
    type: Type.Literal("agent.rename"),
    id: requiredCommandId,
    agent_id: payloadAgentId,
    /** Trimmed by the daemon; an empty or blank name is refused. */
    name: Type.String({ minLength: 1, maxLength: AGENT_NAME_MAX }),
  },
  { $id: "AgentRenameCommand" },
);
export type AgentRenameCommand = Static<typeof AgentRenameCommandSchema>;

/** The agent as it is now listed. */
export const AgentRenameResultSchema = Type.Object({ info: AgentInfoSchema }, { $id: "AgentRenameResult" });
export type AgentRenameResult = Static<typeof AgentRenameResultSchema>;

export const AgentDeleteCommandSchema = Type.Object(
  {
    type: Type.Literal("agent.delete"),
    id: requiredCommandId,
    agent_id: payloadAgentId,
    /** Its session's files (and their forks) go too; without it the session stays in session.list. */
    session: Type.Optional(Type.Boolean()),
  },
  { $id: "AgentDeleteCommand" },
);
export type AgentDeleteCommand = Static<typeof AgentDeleteCommandSchema>;

/** Answered once the runtime is gone and the agent's folder is removed. */
export const AgentDeleteResultSchema = Type.Object({}, { $id: "AgentDeleteResult" });
export type AgentDeleteResult = Static<typeof AgentDeleteResultSchema>;

/** An agent's listing changed other than by its status (a rename): `info` replaces the row. */
export const AgentUpdatedEventSchema = Type.Object(
  { type: Type.Literal("agent_updated"), seq: eventSeq, agent_id: payloadAgentId, info: AgentInfoSchema },
  { $id: "AgentUpdatedEvent" },
);
export type AgentUpdatedEvent = Static<typeof AgentUpdatedEventSchema>;

/** The agent is gone for good (`agent.delete`): every client drops it. */
export const AgentDeletedEventSchema = Type.Object(
  { type: Type.Literal("agent_deleted"), seq: eventSeq, agent_id: payloadAgentId },
  { $id: "AgentDeletedEvent" },
);
export type AgentDeletedEvent = Static<typeof AgentDeletedEventSchema>;
