/**
 * Checks and sorts what the daemon sends: responses, registry events and per-agent events. Each
 * message is checked against its TypeBox schema with `Value.Check` (the compiled validators
 * generate code, which the page's CSP forbids); anything that fails is dropped and counted,
 * never rendered. The schema is looked up by the message's `type` (one check per message, not a
 * walk through the unions: at 10,000 deltas that was most of the time spent here).
 */
import { Value } from "@sinclair/typebox/value";
import {
  AGENT_EVENT_SCHEMAS,
  type AgentEvent,
  DAEMON_EVENT_SCHEMAS,
  type DaemonEvent,
  RESPONSE_SCHEMA,
} from "../../../src/types/catalog.ts";
import type { Response } from "../../../src/types/response.ts";

type AgentEventSchema = (typeof AGENT_EVENT_SCHEMAS)[number];
type DaemonEventSchema = (typeof DAEMON_EVENT_SCHEMAS)[number];

const agentSchemas = new Map<string, AgentEventSchema>(
  AGENT_EVENT_SCHEMAS.map((s) => [s.properties.type.const, s]),
);
const daemonSchemas = new Map<string, DaemonEventSchema>(
  DAEMON_EVENT_SCHEMAS.map((s) => [s.properties.type.const, s]),
);

export type Inbound =
  | { kind: "response"; response: Response }
  | { kind: "daemon"; event: DaemonEvent }
  | { kind: "agent"; agentId: string; event: AgentEvent }
  /** The connection's own hello (it carries no agent_id). */
  | { kind: "hello"; capabilities: string[] }
  | { kind: "invalid"; reason: string };

/** Sorts one parsed message (the WebSocket connector parses each frame). */
export function classify(value: unknown): Inbound {
  const type = typeof value === "object" && value !== null && "type" in value ? String(value.type) : "?";
  if (type === "response") {
    if (Value.Check(RESPONSE_SCHEMA, value)) return { kind: "response", response: value };
  } else {
    const daemonSchema = daemonSchemas.get(type);
    if (daemonSchema !== undefined && Value.Check(daemonSchema, value))
      return { kind: "daemon", event: value };
    const agentSchema = agentSchemas.get(type);
    if (agentSchema !== undefined && Value.Check(agentSchema, value)) {
      if (value.type === "hello") return { kind: "hello", capabilities: value.capabilities };
      if (value.agent_id !== undefined) return { kind: "agent", agentId: value.agent_id, event: value };
      return { kind: "invalid", reason: `${value.type} without agent_id` };
    }
  }
  return { kind: "invalid", reason: `message of type ${type} does not match its schema` };
}
