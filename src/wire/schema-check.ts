/**
 * One check per schema, shared by every validator and guard that uses that schema. It
 * interprets the schema (`Value.Check`) until it has been checked `COMPILE_AFTER` times, then
 * compiles it: a message type that is checked often (deltas, tool output) gets generated code,
 * one that is rare (hello, sync, registry commands, manifests) never costs the memory of its
 * generated code. Both tiers give the same answer; only the speed differs (docs/benchmarks.md,
 * daemon RSS).
 */
import type { Static, TSchema } from "@sinclair/typebox";
import { type TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";
import { Value, type ValueError } from "@sinclair/typebox/value";
import type { SchemaChecker } from "./schema-checker.ts";

/**
 * Checks of one schema before it is compiled. Compiling a message schema takes ~0.1–5 ms, an
 * interpreted check ~0.3–30 µs more than a compiled one: compiling pays for itself after some
 * 100–1,000 checks (bench/schema-check.ts).
 */
export const COMPILE_AFTER = 256;

export class SchemaCheck<S extends TSchema> {
  private uses = 0;
  private compiledCheck: TypeCheck<S> | undefined;

  constructor(readonly schema: S) {}

  /** Whether the schema has been compiled (it has been checked `COMPILE_AFTER` times). */
  get compiled(): boolean {
    return this.compiledCheck !== undefined;
  }

  check(value: unknown): value is Static<S> {
    if (this.compiledCheck) return this.compiledCheck.Check(value);
    if (++this.uses < COMPILE_AFTER) return Value.Check(this.schema, value);
    this.compiledCheck = TypeCompiler.Compile(this.schema);
    return this.compiledCheck.Check(value);
  }

  /** The first reason `value` fails the schema (failures are rare: always interpreted). */
  firstError(value: unknown): ValueError | undefined {
    return Value.Errors(this.schema, value).First();
  }
}

const checks = new WeakMap<TSchema, SchemaCheck<TSchema>>();

/** The shared check of `schema` (one per schema object, made on first use). */
export function schemaCheck<S extends TSchema>(schema: S): SchemaCheck<S> {
  const known = checks.get(schema);
  if (known && isCheckOf(known, schema)) return known;
  const made = new SchemaCheck(schema);
  checks.set(schema, made);
  return made;
}

/**
 * The map's key and value types are not linked, so the link is checked: a check made for this
 * very schema object checks its type. (Always true for the map's entries; a WeakMap cannot say so.)
 */
function isCheckOf<S extends TSchema>(check: SchemaCheck<TSchema>, schema: S): check is SchemaCheck<S> {
  return check.schema === schema;
}

/** `schemaCheck` as a `SchemaChecker`, for the Bun-side clients' result checks (not the page: CSP). */
export const sharedCheck: SchemaChecker = (schema, value) => schemaCheck(schema).check(value);
