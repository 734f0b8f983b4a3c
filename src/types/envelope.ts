/**
 * The one message envelope (docs/protocol.md §4) and the envelope fields every message schema
 * reuses, so correlation, routing and ordering are spelled identically across the catalog.
 */
import { type Static, Type } from "@sinclair/typebox";

/** Wire protocol version carried by `hello` (docs/protocol.md §7). */
export const PROTOCOL_VERSION = "0.1.0";

/** Shape shared by every command and event; type-specific fields ride alongside. */
export const EnvelopeSchema = Type.Object(
  {
    id: Type.Optional(Type.String()),
    type: Type.String({ minLength: 1 }),
    agent_id: Type.Optional(Type.String({ minLength: 1 })),
  },
  { $id: "Envelope" },
);
export type Envelope = Static<typeof EnvelopeSchema>;

/** Correlation id a command may carry (docs/protocol.md §4: every command accepts one). */
export const optionalCommandId = Type.Optional(Type.String());
/** Correlation id for commands the spec writes as `id: string` (daemon-level request/response). */
export const requiredCommandId = Type.String();
/**
 * Routing `agent_id`: present on daemon connections, omitted on direct ones (docs/protocol.md §4).
 */
export const routingAgentId = Type.Optional(Type.String({ minLength: 1 }));
/** Payload `agent_id` of orchestrator messages, which name an agent without routing to it. */
export const payloadAgentId = Type.String({ minLength: 1 });
/**
 * Additive: per-agent monotonic event sequence stamped by the broker (docs/architecture.md §5.3).
 * A plain number, matching the `seq` permissions.ts already declares.
 */
export const eventSeq = Type.Optional(Type.Number());
