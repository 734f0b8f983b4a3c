/**
 * Structured output for `agent.run(prompt, { outputSchema })`: the prompt asks for one JSON object
 * matching the schema, the final answer is parsed (a ```json fence is accepted) and checked with
 * TypeBox. TypeBox's `Value.Check` only knows schemas it built (they carry its `Kind` symbol), so a
 * plain JSON Schema object is first rebuilt with TypeBox from a documented subset of keywords; any
 * other keyword is refused up front rather than silently not checked.
 */
import { KindGuard, type TSchema, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { isRecord } from "../../src/support/is-record.ts";
import { ShardError } from "./errors.ts";

/** A JSON Schema as plain data (`{ type: "object", properties: … }`). */
export type JsonSchema = Record<string, unknown>;

export interface OutputIssue {
  /** JSON pointer of the offending value (`""` for the whole answer). */
  path: string;
  message: string;
}

/** The model's answer still did not match `outputSchema` after the repair prompt. */
export class OutputValidationError extends ShardError {
  constructor(
    readonly issues: OutputIssue[],
    /** The last answer's text. */
    readonly text: string,
  ) {
    super(
      "PROVIDER_ERROR",
      `the model's answer does not match outputSchema after one repair attempt: ${describeIssues(issues)}`,
      { issues, text },
    );
  }
}

export type ParsedOutput = { ok: true; value: unknown } | { ok: false; issues: OutputIssue[] };

/** Most issues quoted back to the model and kept on the error. */
const MAX_ISSUES = 20;

/** A schema `Value.Check` can run: a TypeBox schema as is, a plain JSON Schema rebuilt. */
export function checkableSchema(schema: TSchema | JsonSchema): TSchema {
  if (KindGuard.IsSchema(schema)) return schema;
  return fromJsonSchema(schema, "outputSchema");
}

/** Appended to the prompt: the schema and the one-JSON-object answer rule. */
export function outputInstruction(schema: TSchema): string {
  return [
    "",
    "",
    "Answer with exactly one JSON object that validates against this JSON Schema, and nothing else:",
    "no prose before or after it, no comments, no Markdown except an optional ```json fence.",
    "```json",
    JSON.stringify(schema, null, 2),
    "```",
  ].join("\n");
}

/** The follow-up prompt after an answer that did not validate. */
export function repairPrompt(issues: OutputIssue[]): string {
  return [
    "Your answer does not validate against the JSON Schema given above:",
    ...issues.map((i) => `- ${i.path || "(the answer)"}: ${i.message}`),
    "Answer again with exactly one JSON object that validates against that schema, and nothing else.",
  ].join("\n");
}

export function parseOutput(text: string, schema: TSchema): ParsedOutput {
  const body = unfenced(text.trim());
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { ok: false, issues: [{ path: "", message: `the answer is not JSON (${why})` }] };
  }
  if (Value.Check(schema, value)) return { ok: true, value };
  const issues: OutputIssue[] = [];
  for (const error of Value.Errors(schema, value)) {
    issues.push({ path: error.path, message: describeError(error.schema, error.message) });
    if (issues.length >= MAX_ISSUES) break;
  }
  return { ok: false, issues };
}

/** An enum's "Expected union value" names the allowed values instead. */
function describeError(schema: TSchema, message: string): string {
  const alternatives: unknown = schema.anyOf;
  if (!Array.isArray(alternatives)) return message;
  const values = alternatives.map((s: unknown) => (isRecord(s) ? s.const : undefined));
  if (values.some((v) => v === undefined)) return message;
  return `Expected one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;
}

/** The inside of a ```json (or bare ```) fence that is the whole answer, else the answer. */
function unfenced(text: string): string {
  const fence = /^```(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n```$/i.exec(text);
  return fence?.[1] ?? text;
}

function describeIssues(issues: OutputIssue[]): string {
  return issues.map((i) => `${i.path || "(the answer)"}: ${i.message}`).join("; ");
}

// ── plain JSON Schema → TypeBox ─────────────────────────────────────────

/** Keywords carried over as constraints (TypeBox checks them by their JSON Schema meaning). */
const CONSTRAINTS = new Set([
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
]);
/** Keywords with no effect on validation. */
const ANNOTATIONS = new Set(["$schema", "$id", "title", "description", "default", "examples"]);
/** Keywords rebuilt structurally below. */
const STRUCTURE = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "oneOf",
]);

function fromJsonSchema(schema: unknown, at: string): TSchema {
  if (schema === true) return Type.Unknown();
  if (!isRecord(schema)) throw unsupported(at, "a schema must be an object (or true)");
  const options: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (CONSTRAINTS.has(key) || ANNOTATIONS.has(key)) options[key] = value;
    else if (!STRUCTURE.has(key)) throw unsupported(at, `the keyword "${key}" is not supported`);
  }
  if (schema.const !== undefined) return Type.Literal(literal(schema.const, at), options);
  if (schema.enum !== undefined) {
    if (!Array.isArray(schema.enum) || schema.enum.length === 0)
      throw unsupported(at, "enum must be a non-empty array");
    return Type.Union(
      schema.enum.map((v) => Type.Literal(literal(v, at))),
      options,
    );
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined) {
    if (schema.oneOf !== undefined && schema.anyOf !== undefined) throw unsupported(at, "anyOf with oneOf");
    if (!Array.isArray(alternatives) || alternatives.length === 0)
      throw unsupported(at, "anyOf/oneOf must be a non-empty array");
    // oneOf is checked as anyOf: the model's answer is accepted if it matches any alternative.
    return Type.Union(
      alternatives.map((s, i) => fromJsonSchema(s, `${at}.anyOf[${i}]`)),
      options,
    );
  }
  const type = schema.type;
  if (Array.isArray(type)) {
    return Type.Union(
      type.map((t) => fromJsonSchema({ ...schema, type: t }, at)),
      {},
    );
  }
  switch (type) {
    case "string":
      return Type.String(options);
    case "number":
      return Type.Number(options);
    case "integer":
      return Type.Integer(options);
    case "boolean":
      return Type.Boolean(options);
    case "null":
      return Type.Null(options);
    case "array":
      return Type.Array(
        schema.items === undefined ? Type.Unknown() : fromJsonSchema(schema.items, `${at}.items`),
        options,
      );
    case "object":
      return objectSchema(schema, options, at);
    case undefined:
      if (Object.keys(schema).every((k) => ANNOTATIONS.has(k))) return Type.Unknown();
      throw unsupported(at, "a schema needs a type, const, enum, anyOf or oneOf");
    default:
      throw unsupported(at, `the type ${JSON.stringify(type)} is not supported`);
  }
}

function objectSchema(
  schema: Record<string, unknown>,
  options: Record<string, unknown>,
  at: string,
): TSchema {
  const properties = schema.properties ?? {};
  if (!isRecord(properties)) throw unsupported(at, "properties must be an object");
  const required = schema.required ?? [];
  if (!Array.isArray(required) || !required.every((r) => typeof r === "string")) {
    throw unsupported(at, "required must be an array of names");
  }
  const built: Record<string, TSchema> = {};
  for (const [name, property] of Object.entries(properties)) {
    const inner = fromJsonSchema(property, `${at}.properties.${name}`);
    built[name] = required.includes(name) ? inner : Type.Optional(inner);
  }
  for (const name of required) if (!(name in built)) built[name] = Type.Unknown();
  const extra = schema.additionalProperties;
  if (extra !== undefined) {
    options.additionalProperties =
      typeof extra === "boolean" ? extra : fromJsonSchema(extra, `${at}.additionalProperties`);
  }
  return Type.Object(built, options);
}

function literal(value: unknown, at: string): string | number | boolean {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  throw unsupported(at, "const and enum values must be strings, numbers or booleans");
}

function unsupported(at: string, why: string): ShardError {
  return new ShardError(
    "INVALID_REQUEST",
    `${at}: ${why} (outputSchema takes a TypeBox schema or a plain JSON Schema of the documented subset)`,
  );
}
