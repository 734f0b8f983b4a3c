/**
 * Inbound validation (ARCHITECTURE §7): one compiled validator per message `type`, so a
 * message is checked against its own schema only. Every failure is INVALID_REQUEST with a
 * message that names the offending field.
 */
import { type Static, type TObject, type TSchema, Type } from "@sinclair/typebox";
import { type TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";
import {
  AGENT_COMMAND_SCHEMAS,
  AGENT_EVENT_SCHEMAS,
  type AgentCommand,
  type AgentEvent,
  COMMAND_SCHEMAS,
  EVENT_SCHEMAS,
  RESPONSE_SCHEMA,
  RESULT_SCHEMAS,
} from "../types/catalog.ts";
import type { Response } from "../types/response.ts";
import type { WireError } from "./errors.ts";

export type Validation<T = Record<string, unknown>> =
  | { ok: true; message: T }
  | { ok: false; error: WireError };

type CrossFieldRule = (message: Record<string, unknown>) => string | undefined;

/** Rules a JSON Schema cannot express with a useful field name. */
const CROSS_FIELD_RULES: Record<string, CrossFieldRule> = {
  permission_response: (m) => {
    const hasChoice = m.choice_id !== undefined;
    const hasDecision = m.decision !== undefined;
    if (hasChoice && hasDecision) return 'field "choice_id"/"decision": exactly one may be given, not both';
    if (!hasChoice && !hasDecision) return 'field "choice_id"/"decision": one of them is required';
    return undefined;
  },
  response: (m) => {
    if (m.success === false && m.error === undefined) return 'field "error": required when success is false';
    if (m.success === true && m.error !== undefined)
      return 'field "error": must be absent when success is true';
    return undefined;
  },
};

export class MessageValidator {
  private readonly checks = new Map<string, TypeCheck<TObject>>();

  constructor(
    private readonly schemas: ReadonlyMap<string, TObject>,
    private readonly what: string,
  ) {}

  has(type: string): boolean {
    return this.schemas.has(type);
  }

  validate(raw: unknown): Validation {
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      return invalid(`a ${this.what} must be a JSON object`);
    }
    const message = raw as Record<string, unknown>;
    const type = message.type;
    if (typeof type !== "string") return invalid('field "type": required string is missing');
    const check = this.compiled(type);
    if (!check) return invalid(`field "type": unknown ${this.what} type "${type}"`);
    if (!check.Check(message)) {
      const first = check.Errors(message).First();
      const field = first?.path ? first.path.slice(1).replaceAll("/", ".") : "(message)";
      const detail = first ? describe(first.message, first.value) : "does not match its schema";
      return invalid(`${type}: field "${field}": ${detail}`);
    }
    const crossField = CROSS_FIELD_RULES[type]?.(message);
    if (crossField) return invalid(`${type}: ${crossField}`);
    return { ok: true, message };
  }

  private compiled(type: string): TypeCheck<TObject> | undefined {
    let check = this.checks.get(type);
    if (!check) {
      const schema = this.schemas.get(type);
      if (!schema) return undefined;
      check = TypeCompiler.Compile(schema);
      this.checks.set(type, check);
    }
    return check;
  }
}

function describe(message: string, value: unknown): string {
  if (value === undefined) return `${message} (missing)`;
  return message;
}

function invalid(message: string): Validation {
  return { ok: false, error: { code: "INVALID_REQUEST", message } };
}

/** Client → server messages (every command of every layer). */
export const commandValidator = new MessageValidator(COMMAND_SCHEMAS, "command");
/** Server → client messages; the SDK and tests validate what they receive. */
export const eventValidator = new MessageValidator(
  new Map([...EVENT_SCHEMAS, ["response", RESPONSE_SCHEMA as TObject]]),
  "event",
);

/**
 * A guard that narrows a message to the schema `build` makes (a union of message schemas),
 * compiled on first use so a process pays only for the checks it runs. Handlers then switch over
 * typed messages without a cast.
 */
export function schemaGuard<S extends TSchema>(build: () => S): (message: unknown) => Static<S> | undefined {
  let check: TypeCheck<S> | undefined;
  return (message) => {
    check ??= TypeCompiler.Compile(build());
    return check.Check(message) ? message : undefined;
  };
}

/** A message `commandValidator` accepted, narrowed to the per-agent commands (undefined for daemon ones). */
export const asAgentCommand: (message: unknown) => AgentCommand | undefined = schemaGuard(() =>
  Type.Union([...AGENT_COMMAND_SCHEMAS]),
);
/** What a runtime sent (the daemon reads its stdout), narrowed to the agent event union. */
export const asAgentEvent: (message: unknown) => AgentEvent | undefined = schemaGuard(() =>
  Type.Union([...AGENT_EVENT_SCHEMAS]),
);
/** A runtime's message narrowed to a `response` envelope. */
export const asResponse: (message: unknown) => Response | undefined = schemaGuard(() => RESPONSE_SCHEMA);

const resultChecks = new Map<string, TypeCheck<TObject>>();

/** Checks a successful `response.data` against its command's result schema, where one is pinned. */
export function validateResult(command: string, data: unknown): Validation<unknown> {
  const schema = RESULT_SCHEMAS.get(command);
  if (!schema) return { ok: true, message: data };
  let check = resultChecks.get(command);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    resultChecks.set(command, check);
  }
  if (check.Check(data)) return { ok: true, message: data };
  const first = check.Errors(data).First();
  const field = first?.path ? `data${first.path.replaceAll("/", ".")}` : "data";
  return invalid(
    `${command} response: field "${field}": ${first?.message ?? "does not match its schema"}`,
  ) as Validation<unknown>;
}
