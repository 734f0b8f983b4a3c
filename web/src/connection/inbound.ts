/**
 * Checks and sorts what the daemon sends: responses, registry events and per-agent events. Each
 * message is checked against its TypeBox schema with `Value.Check` (the compiled validators
 * generate code, which the page's CSP forbids); anything that fails is dropped and counted,
 * never rendered.
 */
import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import {
  AGENT_EVENT_SCHEMAS,
  type AgentEvent,
  DAEMON_EVENT_SCHEMAS,
  type DaemonEvent,
  RESPONSE_SCHEMA,
} from "../../../src/types/catalog.ts";
import type { Response } from "../../../src/types/response.ts";

const agentEvent = Type.Union([...AGENT_EVENT_SCHEMAS]);
const daemonEvent = Type.Union([...DAEMON_EVENT_SCHEMAS]);

export type Inbound =
  | { kind: "response"; response: Response }
  | { kind: "daemon"; event: DaemonEvent }
  | { kind: "agent"; agentId: string; event: AgentEvent }
  /** The connection's own hello (it carries no agent_id). */
  | { kind: "hello"; capabilities: string[] }
  | { kind: "invalid"; reason: string };

export function classify(text: string): Inbound {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "invalid", reason: "not JSON" };
  }
  if (Value.Check(RESPONSE_SCHEMA, value)) return { kind: "response", response: value };
  if (Value.Check(daemonEvent, value)) return { kind: "daemon", event: value };
  if (Value.Check(agentEvent, value)) {
    if (value.type === "hello") return { kind: "hello", capabilities: value.capabilities };
    if (value.agent_id !== undefined) return { kind: "agent", agentId: value.agent_id, event: value };
    return { kind: "invalid", reason: `${value.type} without agent_id` };
  }
  const type = typeof value === "object" && value !== null && "type" in value ? String(value.type) : "?";
  return { kind: "invalid", reason: `message of type ${type} does not match its schema` };
}
