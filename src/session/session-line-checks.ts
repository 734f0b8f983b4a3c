/**
 * Checks a parsed session-file line against its TypeBox schema (src/types/session-entries.ts),
 * through the schema's shared check (src/wire/schema-check.ts: compiled once many lines were
 * read, so a process that reads no sessions never compiles them). A line passes with one call
 * of the union check; only a failing line pays for the error walk that names the failing field.
 */
import type { TObject, TSchema } from "@sinclair/typebox";
import type { ValueError } from "@sinclair/typebox/value";
import { isRecord } from "../support/is-record.ts";
import {
  type SessionEntry,
  SessionEntrySchema,
  type SessionHeader,
  SessionHeaderSchema,
} from "../types/session-entries.ts";
import { schemaCheck } from "../wire/schema-check.ts";

const headerCheck = schemaCheck(SessionHeaderSchema);
const entryCheck = schemaCheck(SessionEntrySchema);
/** Per-type schemas: they give the field error of the entry's own schema. */
const entrySchemas = new Map<string, TObject>(
  SessionEntrySchema.anyOf.map((schema) => [schema.properties.type.const, schema]),
);

export type LineCheck<T> = { ok: true; value: T } | { ok: false; problem: string };

/** `field "message.content.0.text": Expected string`, from the first schema error. */
function describeError(first: ValueError | undefined): string {
  if (!first) return "does not match its schema";
  const field = first.path === "" ? "(line)" : first.path.slice(1).replaceAll("/", ".");
  const missing = first.value === undefined ? " (missing)" : "";
  return `field "${field}": ${literalChoices(first.schema) ?? first.message}${missing}`;
}

/** `must be one of "steer", "follow_up"` for a union of literals, whose own message says only "Expected union value". */
function literalChoices(schema: TSchema): string | undefined {
  const members: unknown[] = Array.isArray(schema.anyOf) ? schema.anyOf : [];
  const consts = members.map((m) => (isRecord(m) ? m.const : undefined));
  if (consts.length === 0 || consts.some((c) => c === undefined)) return undefined;
  return `must be one of ${consts.map((c) => JSON.stringify(c)).join(", ")}`;
}

export function checkHeader(value: unknown): LineCheck<SessionHeader> {
  if (headerCheck.check(value)) return { ok: true, value };
  if (!isRecord(value)) return { ok: false, problem: "header is not a JSON object" };
  if (value.type !== "session") return { ok: false, problem: 'header "type" is not "session"' };
  if (value.version !== 1) {
    return { ok: false, problem: `unsupported session version ${JSON.stringify(value.version)}` };
  }
  return { ok: false, problem: `header: ${describeError(headerCheck.firstError(value))}` };
}

/** The shape of one entry; the parent chain is the parser's to check. */
export function checkEntry(value: unknown): LineCheck<SessionEntry> {
  if (entryCheck.check(value)) return { ok: true, value };
  if (!isRecord(value)) return { ok: false, problem: "entry is not a JSON object" };
  const type = value.type;
  const schema = typeof type === "string" ? entrySchemas.get(type) : undefined;
  if (typeof type !== "string" || !schema) {
    return { ok: false, problem: `unknown entry type ${JSON.stringify(type)}` };
  }
  return { ok: false, problem: `${type} entry: ${describeError(schemaCheck(schema).firstError(value))}` };
}
