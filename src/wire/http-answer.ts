/**
 * Reads the answer of one of the daemon's HTTP routes (src/types/http-auth.ts), for the web and
 * the SDK alike: a success body must match the route's answer schema and a refusal is an
 * `HttpError`. A body of the wrong shape is a failure naming the field, never a value of the
 * wrong type. Interpreted checks only (`Value.Check`): the web's CSP forbids generated code.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { type ErrorCode, HttpErrorSchema } from "../types/errors.ts";
import { describeFailure } from "./schema-failure.ts";

export type HttpAnswer<T> =
  | { ok: true; value: T }
  | { ok: false; status: number; code: ErrorCode; message: string };

/** The messages do not name the route: the web shows them as they are, the SDK prefixes the path. */
export async function readHttpAnswer<S extends TSchema>(
  response: Response,
  schema: S,
): Promise<HttpAnswer<Static<S>>> {
  const { status } = response;
  const body: unknown = await response.json().catch(() => undefined);
  if (response.ok) {
    if (Value.Check(schema, body)) return { ok: true, value: body };
    return {
      ok: false,
      status,
      code: "INTERNAL_ERROR",
      message: `the daemon answered ${status} with a body that does not match ${schema.$id ?? "its schema"} (${describeFailure(schema, body)}); are the client and the daemon of the same version?`,
    };
  }
  if (Value.Check(HttpErrorSchema, body))
    return { ok: false, status, code: body.code, message: body.message };
  // Not the daemon's refusal (a proxy's error page, say): the status is all there is.
  const code = status === 409 ? "CONFLICT" : status >= 500 ? "INTERNAL_ERROR" : "PERMISSION_DENIED";
  return { ok: false, status, code, message: `the daemon answered ${status}` };
}
