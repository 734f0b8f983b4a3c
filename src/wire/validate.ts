/**
 * Inbound validation (docs/architecture.md §5.7): each message is checked against the schema of its
 * own `type` only, through that schema's shared check (./schema-check.ts: interpreted while rare,
 * compiled once frequent). Every failure is INVALID_REQUEST with a message that names the
 * offending field.
 */
import type { Static, TObject, TSchema } from "@sinclair/typebox";
import { isRecord } from "../support/is-record.ts";
import {
  AGENT_EVENT_SCHEMAS,
  type AgentEvent,
  COMMAND_SCHEMAS,
  EVENT_SCHEMAS,
  messageType,
  RESPONSE_SCHEMA,
} from "../types/catalog.ts";
import { type AnyCommand, isCommandType } from "../types/command-table.ts";
import type { Response } from "../types/response.ts";
import type { WireError } from "./errors.ts";
import { checkResultData } from "./result-data.ts";
import { schemaCheck, sharedCheck } from "./schema-check.ts";
import { describeFailure } from "./schema-failure.ts";

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

/**
 * Checks a message against the schema of its own `type` in `schemas`. `T` is the union those
 * schemas describe: the map and the type parameter are built from the same table.
 */
export class MessageValidator<T extends object = Record<string, unknown>> {
  constructor(
    private readonly schemas: ReadonlyMap<string, TObject>,
    private readonly what: string,
  ) {}

  has(type: string): boolean {
    return this.schemas.has(type);
  }

  validate(raw: unknown): Validation<T> {
    if (!isRecord(raw)) return invalid(`a ${this.what} must be a JSON object`);
    const message = raw;
    const type = message.type;
    if (typeof type !== "string") return invalid('field "type": required string is missing');
    const schema = this.schemas.get(type);
    if (!schema) return invalid(`field "type": unknown ${this.what} type "${type}"`);
    const check = schemaCheck(schema);
    if (!matches<T>(check.check(message), message))
      return invalid(`${type}: ${describeFailure(schema, message)}`);
    const crossField = CROSS_FIELD_RULES[type]?.(message);
    if (crossField) return invalid(`${type}: ${crossField}`);
    return { ok: true, message };
  }
}

/** A message that passed the schema of its own `type` is a member of the union `T` the validator describes. */
function matches<T>(passed: boolean, _message: unknown): _message is T {
  return passed;
}

function invalid(message: string): { ok: false; error: WireError } {
  return { ok: false, error: { code: "INVALID_REQUEST", message } };
}

/** Client → server messages (every command of the command table). */
export const commandValidator = new MessageValidator<AnyCommand>(COMMAND_SCHEMAS, "command");
/** Server → client messages; the SDK and tests validate what they receive. */
export const eventValidator = new MessageValidator(
  new Map<string, TObject>([...EVENT_SCHEMAS, ["response", RESPONSE_SCHEMA]]),
  "event",
);

/** A guard that narrows a message to `schema`. */
export function schemaGuard<S extends TSchema>(schema: S): (message: unknown) => Static<S> | undefined {
  const check = schemaCheck(schema);
  return (message) => (check.check(message) ? message : undefined);
}

/**
 * A guard that narrows a message to one of `schemas` (message schemas with distinct literal
 * `type`s). It dispatches on `type` to that schema's shared check, so no union is compiled and
 * a message is checked against one schema only; handlers then switch over typed messages
 * without a cast.
 */
export function messageGuard<S extends TObject>(
  schemas: readonly S[],
): (message: unknown) => Static<S> | undefined {
  const byType = new Map(schemas.map((schema) => [messageType(schema), schemaCheck(schema)]));
  return (message) => {
    if (message === null || typeof message !== "object" || !("type" in message)) return undefined;
    const check = typeof message.type === "string" ? byType.get(message.type) : undefined;
    return check?.check(message) ? message : undefined;
  };
}

/** What a runtime sent (the daemon reads its stdout), narrowed to the agent event union. */
export const asAgentEvent: (message: unknown) => AgentEvent | undefined = messageGuard(AGENT_EVENT_SCHEMAS);
/** A runtime's message narrowed to a `response` envelope. */
export const asResponse: (message: unknown) => Response | undefined = schemaGuard(RESPONSE_SCHEMA);

/**
 * Checks a successful `response.data` against its command's result schema (a command whose
 * result is an empty object answers without `data`). A type outside the table passes.
 */
export function validateResult(command: string, data: unknown): Validation<unknown> {
  return isCommandType(command) ? checkResultData(command, data, sharedCheck) : { ok: true, message: data };
}
