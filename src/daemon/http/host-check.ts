/**
 * Exact Host check on every route (docs/protocol.md §3.1; like Jupyter's check_host): DNS-rebinding
 * names, suffixes, alternate loopback spellings, another port and a missing Host all get 421.
 */
import type { MiddlewareHandler } from "hono";
import type { DaemonEnv } from "./daemon-env.ts";
import { httpError } from "./http-error.ts";
import type { WebPolicy } from "./web-policy.ts";

export function hostCheck(policy: () => WebPolicy | undefined): MiddlewareHandler<DaemonEnv> {
  return async (c, next) => {
    const current = policy();
    if (!current) return httpError(c, 503, "INTERNAL_ERROR", "the daemon is still starting; try again");
    if (c.req.header("host") !== current.expectedHost) {
      return httpError(
        c,
        421,
        "PERMISSION_DENIED",
        `this daemon answers only to Host ${current.expectedHost}; open the address shard printed`,
      );
    }
    await next();
  };
}
