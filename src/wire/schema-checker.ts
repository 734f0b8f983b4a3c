/**
 * A schema check chosen by the caller. Bun-side clients use the shared check (schema-check.ts:
 * compiled once a schema is hot); the web page uses `interpretedCheck`, because its CSP forbids
 * the generated code a compiled check runs.
 */
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

export type SchemaChecker = (schema: TSchema, value: unknown) => boolean;

/** `Value.Check`: no generated code, so it runs under a CSP without `unsafe-eval`. */
export const interpretedCheck: SchemaChecker = (schema, value) => Value.Check(schema, value);
