/** Every HTTP refusal is `{ code, message }` (PROTOCOL §8) and says what to do. */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorCode } from "../../types/errors.ts";

export function httpError(
  c: Context,
  status: ContentfulStatusCode,
  code: ErrorCode,
  message: string,
): Response {
  return c.json({ code, message }, status);
}
