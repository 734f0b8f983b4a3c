/**
 * Why a value fails its schema, naming the field (`field "a.b": <reason>`), for every validator
 * that answers a bad message or body and every client that refuses a bad answer. Failures are
 * rare, so this always interprets (`Value.Errors`): no generated code, which the web's CSP
 * forbids.
 */
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

export function describeFailure(schema: TSchema, value: unknown): string {
  const first = Value.Errors(schema, value).First();
  if (!first) return 'field "(message)": does not match its schema';
  const field = first.path ? first.path.slice(1).replaceAll("/", ".") : "(message)";
  const missing = first.value === undefined ? " (missing)" : "";
  return `field "${field}": ${first.message}${missing}`;
}
