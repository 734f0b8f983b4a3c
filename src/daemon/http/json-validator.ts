/**
 * Request bodies checked against their TypeBox schema (src/types) before a route runs: Hono's
 * `validator("json")` with our shared schema check, so the route reads its body typed with
 * `c.req.valid("json")`. A body that does not match is 400 `INVALID_REQUEST` naming the field,
 * as on the wire (src/wire/validate.ts); malformed JSON is 400 too (app.ts answers Hono's
 * exception). Put `jsonBodyLimit` in front: the validator reads the whole body.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { validator } from "hono/validator";
import { schemaCheck } from "../../wire/schema-check.ts";
import { describeFailure } from "../../wire/schema-failure.ts";
import type { DaemonEnv } from "./daemon-env.ts";
import { httpError } from "./http-error.ts";

export function jsonValidator<S extends TSchema>(schema: S) {
  const check = schemaCheck(schema);
  return validator("json", (value, c): Static<S> | Response =>
    check.check(value)
      ? value
      : httpError(c, 400, "INVALID_REQUEST", `${schema.$id ?? "body"}: ${describeFailure(schema, value)}`),
  );
}

/** At most `maxBytes` of body, counted as it streams in (never buffering what an attacker sends). */
export function jsonBodyLimit(maxBytes: number): MiddlewareHandler<DaemonEnv> {
  return bodyLimit({
    maxSize: maxBytes,
    onError: (c) => httpError(c, 413, "INVALID_REQUEST", `the body is larger than ${maxBytes} bytes`),
  });
}

/** For routes that take only JSON: another Content-Type is 415 (Hono's validator would read it as `{}`). */
export const requireJsonType: MiddlewareHandler<DaemonEnv> = async (c, next) => {
  const type = c.req.header("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
    return httpError(c, 415, "INVALID_REQUEST", "send the body as Content-Type: application/json");
  }
  await next();
};

/**
 * For a route whose body may be left out (`/bootstrap`): no body, or an empty one, is read as
 * `{}` even under a JSON Content-Type, which Hono's validator would refuse as malformed JSON.
 */
export const emptyBodyIsEmptyObject: MiddlewareHandler<DaemonEnv> = async (c, next) => {
  if (c.req.raw.body === null || c.req.header("content-length") === "0") {
    c.req.raw = new Request(c.req.raw, { body: "{}" });
  }
  await next();
};
