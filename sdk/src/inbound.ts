/**
 * Sorts what a server sends into responses, per-agent events and daemon events. Every message
 * is first checked against the schema of its own `type` (the shared compiled validators of
 * src/wire), so the narrowing below only names what validation has already proven.
 */
import { AGENT_EVENT_SCHEMAS, type AgentEvent, type DaemonEvent } from "../../src/types/catalog.ts";
import type { Response } from "../../src/types/response.ts";
import type { WireError } from "../../src/wire/errors.ts";
import { eventValidator } from "../../src/wire/validate.ts";

export type Inbound =
  | { kind: "response"; response: Response }
  | { kind: "agent"; event: AgentEvent }
  | { kind: "daemon"; event: DaemonEvent }
  | { kind: "invalid"; error: WireError };

const AGENT_EVENT_TYPES: ReadonlySet<string> = new Set(
  AGENT_EVENT_SCHEMAS.map((s) => s.properties.type.const),
);

type Validated = Record<string, unknown>;

// Each guard runs on a message `eventValidator` accepted: its shape is that of its type's schema.
function isResponse(m: Validated): m is Validated & Response {
  return m.type === "response";
}
function isAgentEvent(m: Validated): m is Validated & AgentEvent {
  return typeof m.type === "string" && AGENT_EVENT_TYPES.has(m.type);
}
function isDaemonEvent(m: Validated): m is Validated & DaemonEvent {
  return typeof m.type === "string" && !AGENT_EVENT_TYPES.has(m.type) && m.type !== "response";
}

export function classify(raw: unknown): Inbound {
  const checked = eventValidator.validate(raw);
  if (!checked.ok) return { kind: "invalid", error: checked.error };
  const message = checked.message;
  if (isResponse(message)) return { kind: "response", response: message };
  if (isAgentEvent(message)) return { kind: "agent", event: message };
  if (isDaemonEvent(message)) return { kind: "daemon", event: message };
  return { kind: "invalid", error: { code: "INVALID_REQUEST", message: "unclassifiable message" } };
}
