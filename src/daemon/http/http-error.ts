/** Every HTTP refusal is an `HttpError` body, `{ code, message }` (src/types/errors.ts), that says what to do. */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorCode, HttpError } from "../../types/errors.ts";

export function httpError(
  c: Context,
  status: ContentfulStatusCode,
  code: ErrorCode,
  message: string,
): Response {
  const body: HttpError = { code, message };
  return c.json(body, status);
}
