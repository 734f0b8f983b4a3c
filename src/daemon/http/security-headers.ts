/**
 * Headers on every response (docs/architecture.md §10.6): no framing (clickjacking), no MIME
 * sniffing, no referrer (a URL never leaks to another site), a CSP that allows this origin only. No
 * CORS header is ever set, so no other origin can read a response.
 */
import type { MiddlewareHandler } from "hono";
import type { DaemonEnv } from "./daemon-env.ts";

export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export const securityHeaders: MiddlewareHandler<DaemonEnv> = async (c, next) => {
  await next();
  c.res.headers.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
  c.res.headers.set("X-Frame-Options", "DENY");
  c.res.headers.set("X-Content-Type-Options", "nosniff");
  c.res.headers.set("Referrer-Policy", "no-referrer");
};
