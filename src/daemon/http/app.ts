/**
 * The daemon's HTTP surface (a Hono app). Every route, `/ws` and 404s included, passes the
 * security headers, the exact Host check and the forwarded-header rules first. `/enroll` and
 * `/bootstrap` are browser authentication; `/ws` upgrades once the authenticator has said yes;
 * every other GET is the web client (static-web.ts).
 * The upgrade is done here, with Bun's server, so the WebSocket limits stay ours (websocket.ts).
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { describeError } from "../../support/describe-error.ts";
import type { Authenticator } from "../auth/authenticator.ts";
import type { BrowserAuth } from "../auth/browser-auth.ts";
import { mountAuthRoutes } from "./auth-routes.ts";
import type { DaemonEnv } from "./daemon-env.ts";
import { forwardedHeaders } from "./forwarded.ts";
import { hostCheck } from "./host-check.ts";
import { httpError } from "./http-error.ts";
import { securityHeaders } from "./security-headers.ts";
import { mountStaticWeb } from "./static-web.ts";
import type { WebAssets } from "./web-assets.ts";
import type { WebPolicy } from "./web-policy.ts";
import type { WsData } from "./websocket.ts";

export interface AppDeps {
  /** Decides WebSocket upgrades (BrowserAuth in the daemon; tests may plug in another). */
  authenticator: Authenticator;
  browserAuth: BrowserAuth;
  /** The built web client, served at every other GET path. */
  webAssets: WebAssets;
  /** Undefined until the server listens: requests are refused until then. */
  policy: () => WebPolicy | undefined;
  log(line: string): void;
}

export function createApp(deps: AppDeps): Hono<DaemonEnv> {
  const app = new Hono<DaemonEnv>();
  app.use(securityHeaders);
  app.use(hostCheck(deps.policy));
  app.use(forwardedHeaders(deps.policy));
  mountAuthRoutes(app, deps.browserAuth, deps.policy);
  app.get("/ws", async (c) => {
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
      return httpError(c, 426, "INVALID_REQUEST", "expected a WebSocket upgrade");
    }
    const decision = await deps.authenticator.authenticateUpgrade(c.req.raw);
    if (!decision.ok) return httpError(c, decision.status, "PERMISSION_DENIED", decision.message);
    const data: WsData = {
      principal: decision.principal,
      ...(decision.label !== undefined ? { label: decision.label } : {}),
    };
    const headers =
      decision.protocol !== undefined ? { "Sec-WebSocket-Protocol": decision.protocol } : undefined;
    if (c.env.server.upgrade(c.req.raw, { data, ...(headers ? { headers } : {}) })) {
      return new Response(null);
    }
    return httpError(c, 400, "INVALID_REQUEST", "WebSocket upgrade failed");
  });
  mountStaticWeb(app, deps.webAssets);
  app.notFound((c) => httpError(c, 404, "NOT_FOUND", "not found"));
  app.onError((err, c) => {
    // Hono's own refusals of a request (the validator's malformed JSON): the client's fault.
    if (err instanceof HTTPException && err.status < 500) {
      return httpError(c, err.status, "INVALID_REQUEST", err.message);
    }
    deps.log(`http ${c.req.method} ${c.req.path}: ${describeError(err)}`);
    return httpError(c, 500, "INTERNAL_ERROR", "the daemon failed to answer; daemon.log has the cause");
  });
  return app;
}
