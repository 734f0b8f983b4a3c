/**
 * A small real HTTP + WebSocket proxy in front of a real daemon, for a daemon that answers
 * wrongly: every request and every message passes through unchanged, except the messages from
 * the daemon that `rewrite` replaces. The page is served from the proxy's origin; the proxy
 * speaks to the daemon as the daemon's own origin (Host and Origin set to it, as a same-origin
 * page would send them), so enrollment, the ticket and the socket work as they do direct.
 * Session cookies are host-only and ignore the port: the one the daemon sets reaches both.
 */
import type { Server, ServerWebSocket } from "bun";
import type { WebSocketConstructor } from "../../../sdk/src/transports/websocket-transport.ts";

export type Rewrite = (message: Record<string, unknown>) => Record<string, unknown>;

export interface RewritingProxy {
  /** The proxy's origin, `http://127.0.0.1:<port>`. */
  origin: string;
  /** Replaces how the daemon's messages are rewritten from now on (`undefined`: pass them on). */
  rewriteWith(rewrite: Rewrite | undefined): void;
  stop(): void;
}

interface Pipe {
  upstream: WebSocket;
}

export function startRewritingProxy(daemonUrl: string): RewritingProxy {
  const daemon = new URL(daemonUrl);
  let rewrite: Rewrite | undefined;
  const passOn = (text: string): string => {
    if (rewrite === undefined) return text;
    const message: unknown = JSON.parse(text);
    if (typeof message !== "object" || message === null || Array.isArray(message)) return text;
    return JSON.stringify(rewrite(Object.fromEntries(Object.entries(message))));
  };

  const server: Server<Pipe> = Bun.serve<Pipe>({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request, srv) {
      const url = new URL(request.url);
      const headers = new Headers(request.headers);
      headers.set("host", daemon.host);
      if (headers.has("origin")) headers.set("origin", daemon.origin);
      if (url.pathname === "/ws") {
        const protocols = (request.headers.get("sec-websocket-protocol") ?? "")
          .split(",")
          .map((p) => p.trim());
        const upstream = await openUpstream(`ws://${daemon.host}/ws`, protocols, {
          origin: daemon.origin,
          cookie: request.headers.get("cookie") ?? "",
        });
        if (upstream === undefined) return new Response("the daemon refused the socket", { status: 502 });
        const upgraded = srv.upgrade(request, {
          data: { upstream },
          headers: { "Sec-WebSocket-Protocol": upstream.protocol },
        });
        if (!upgraded) upstream.close();
        return upgraded ? undefined : new Response("upgrade failed", { status: 400 });
      }
      headers.delete("accept-encoding");
      const body = request.method === "GET" || request.method === "HEAD" ? null : await request.arrayBuffer();
      const answer = await fetch(new URL(url.pathname + url.search, daemon), {
        method: request.method,
        headers,
        body,
        redirect: "manual",
      });
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    },
    websocket: {
      open(ws: ServerWebSocket<Pipe>) {
        const { upstream } = ws.data;
        upstream.onmessage = (event) => {
          if (typeof event.data === "string") ws.send(passOn(event.data));
        };
        upstream.onclose = (event) => ws.close(event.code === 1005 ? 1000 : event.code, event.reason);
      },
      message(ws, message) {
        ws.data.upstream.send(message);
      },
      close(ws, code, reason) {
        ws.data.upstream.close(code === 1005 ? 1000 : code, reason);
      },
    },
  });
  return {
    origin: `http://127.0.0.1:${server.port}`,
    rewriteWith: (next) => {
      rewrite = next;
    },
    stop: () => void server.stop(true),
  };
}

/** The daemon's socket once open, or undefined when it refused the handshake. */
function openUpstream(
  url: string,
  protocols: string[],
  headers: Record<string, string>,
): Promise<WebSocket | undefined> {
  return new Promise((resolve) => {
    const ws = new (bunWebSocket())(url, { protocols, headers });
    ws.onopen = () => resolve(ws);
    ws.onclose = () => resolve(undefined);
  });
}

/** Bun's WebSocket takes `{ protocols, headers }` (the DOM's type, which tsc sees, does not say so). */
function bunWebSocket(): WebSocketConstructor {
  const ctor: unknown = Reflect.get(globalThis, "WebSocket");
  if (!isConstructor(ctor)) throw new Error("no global WebSocket");
  return ctor;
}

function isConstructor(ctor: unknown): ctor is WebSocketConstructor {
  return typeof ctor === "function";
}
