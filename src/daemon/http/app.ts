/**
 * The daemon's HTTP surface (a Hono app): `/ws` upgrades to the WebSocket transport once the
 * authenticator has said yes. The upgrade is done here, with Bun's server, so the WebSocket
 * limits stay ours (websocket.ts) rather than a helper's defaults.
 */
import type { Server } from "bun";
import { Hono } from "hono";
import type { Authenticator } from "../auth/authenticator.ts";
import type { WsData } from "./websocket.ts";

export interface AppDeps {
  authenticator: Authenticator;
}

export type DaemonServer = Server<WsData>;

export function createApp(deps: AppDeps): Hono<{ Bindings: { server: DaemonServer } }> {
  const app = new Hono<{ Bindings: { server: DaemonServer } }>();
  app.get("/ws", async (c) => {
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
      return c.text("expected a WebSocket upgrade", 426);
    }
    const decision = await deps.authenticator.authenticateUpgrade(c.req.raw);
    if (!decision.ok) return c.text(decision.message, decision.status);
    const data: WsData = { principal: decision.principal };
    if (c.env.server.upgrade(c.req.raw, { data })) return new Response(null);
    return c.text("WebSocket upgrade failed", 400);
  });
  app.notFound((c) => c.text("not found", 404));
  return app;
}
