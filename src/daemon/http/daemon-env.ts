/** The Hono environment of the daemon's HTTP app: Bun's server, and what the middleware worked out. */
import type { Server } from "bun";
import type { Scheme } from "../auth/session-cookie.ts";
import type { WsData } from "./websocket.ts";

export type DaemonServer = Server<WsData>;

export interface DaemonEnv {
  Bindings: { server: DaemonServer };
  Variables: {
    /** The effective scheme: https only when the trusted proxy says so (forwarded.ts). */
    scheme: Scheme;
  };
}
