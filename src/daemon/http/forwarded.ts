/**
 * Forwarded headers (docs/protocol.md §3.2; docs/auth.md, Remote mode). Only a request whose direct
 * peer is the configured upstream proxy may set the effective scheme (X-Forwarded-Proto: https).
 * Its X-Forwarded-Host must equal the pinned public host (400 otherwise): it never chooses the
 * host. From any other peer the headers are ignored and the request is plain http. X-Forwarded-For
 * is never read. The two names can be changed (--forwarded-proto-header, --forwarded-host-header).
 */
import type { MiddlewareHandler } from "hono";
import type { DaemonEnv } from "./daemon-env.ts";
import { httpError } from "./http-error.ts";
import { isTrustedPeer, type WebPolicy } from "./web-policy.ts";

export function forwardedHeaders(policy: () => WebPolicy | undefined): MiddlewareHandler<DaemonEnv> {
  return async (c, next) => {
    c.set("scheme", "http");
    const current = policy();
    const peer = c.env.server.requestIP(c.req.raw)?.address;
    if (current && isTrustedPeer(peer, current.trustProxy)) {
      const names = current.forwardedHeaders;
      const forwardedHost = c.req.header(names.host);
      if (forwardedHost !== undefined && forwardedHost !== current.expectedHost) {
        return httpError(
          c,
          400,
          "PERMISSION_DENIED",
          `the ${names.host} header does not match --public-host ${current.expectedHost}; make the proxy forward the public host unchanged`,
        );
      }
      if (c.req.header(names.proto)?.toLowerCase() === "https") c.set("scheme", "https");
    }
    await next();
  };
}
