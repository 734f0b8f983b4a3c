/**
 * Exact Origin matching (docs/protocol.md §3.1): the serialized Origin header must be one of the
 * allowed origins, byte for byte. Missing, `null`, look-alikes, another port or scheme, a
 * trailing slash: all refused. Browsers send Origin on every POST and WebSocket handshake.
 */
import type { MiddlewareHandler } from "hono";
import type { DaemonEnv } from "./daemon-env.ts";
import { httpError } from "./http-error.ts";
import type { WebPolicy } from "./web-policy.ts";

export type OriginCheck = { ok: true; origin: string } | { ok: false; message: string };

export function checkOrigin(origin: string | null | undefined, allowed: ReadonlySet<string>): OriginCheck {
  if (origin === null || origin === undefined || origin === "") {
    return { ok: false, message: "the request has no Origin header; open the daemon's page in a browser" };
  }
  if (!allowed.has(origin)) {
    return { ok: false, message: `Origin ${JSON.stringify(origin).slice(0, 200)} is not allowed here` };
  }
  return { ok: true, origin };
}

/** For the POST routes: a cross-origin request is 403. */
export function requireOrigin(policy: () => WebPolicy | undefined): MiddlewareHandler<DaemonEnv> {
  return async (c, next) => {
    const checked = checkOrigin(c.req.header("origin"), policy()?.allowedOrigins ?? new Set());
    if (!checked.ok) return httpError(c, 403, "PERMISSION_DENIED", checked.message);
    await next();
  };
}
