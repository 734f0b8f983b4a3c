/**
 * The remote daemon transport (docs/protocol.md §1, §3.1): one JSON message per text frame, the
 * ticket offered as the subprotocols `shard.v1, shard.ticket.<t>` (never in the URL), and the
 * page Origin the ticket is bound to. Uses only the standard WebSocket API, so it runs under
 * Bun, Node ≥ 22 and Node 20 with `--experimental-websocket`; the constructor is injectable.
 */
import { deliverFrame } from "../../../src/client/websocket-frame.ts";
import { ShardError } from "../errors.ts";
import type { ClientCommand, Transport, TransportSink } from "./transport.ts";

export interface WebSocketInit {
  protocols: string[];
  headers: Record<string, string>;
}

/** A standard WebSocket constructor that accepts `{ protocols, headers }` (Bun, undici). */
export type WebSocketConstructor = new (url: string, init: WebSocketInit) => WebSocket;

export const SHARD_SUBPROTOCOL = "shard.v1";
export const TICKET_PREFIX = "shard.ticket.";

export interface WebSocketTarget {
  /** `ws(s)://host:port/ws`. */
  url: string;
  ticket: string;
  /** The Origin the ticket was issued for (the daemon checks it on the upgrade). */
  origin: string;
  WebSocket?: WebSocketConstructor;
}

export class WebSocketTransport implements Transport {
  private closedOnce = false;

  private constructor(
    private readonly ws: WebSocket,
    private readonly sink: TransportSink,
  ) {}

  static open(target: WebSocketTarget, sink: TransportSink): Promise<WebSocketTransport> {
    const Ctor = target.WebSocket ?? globalWebSocket();
    return new Promise((resolve, reject) => {
      const ws = new Ctor(target.url, {
        protocols: [SHARD_SUBPROTOCOL, `${TICKET_PREFIX}${target.ticket}`],
        headers: { Origin: target.origin },
      });
      let transport: WebSocketTransport | undefined;
      ws.onopen = () => {
        transport = new WebSocketTransport(ws, sink);
        resolve(transport);
      };
      ws.onmessage = (event: MessageEvent) => deliverFrame(event.data, sink);
      ws.onclose = (event: CloseEvent) => {
        if (!transport) {
          reject(
            new ShardError(
              "PERMISSION_DENIED",
              `the WebSocket to ${target.url} did not open (${event.code}${event.reason ? ` ${event.reason}` : ""}); a refused upgrade means the ticket or Origin was not accepted: get a fresh ticket from POST /bootstrap`,
            ),
          );
          return;
        }
        transport.ended(event.reason || `the WebSocket closed (${event.code})`);
      };
      ws.onerror = () => {
        // `close` follows with the code; the error event itself carries nothing useful.
      };
    });
  }

  send(command: ClientCommand): void {
    if (this.closedOnce || this.ws.readyState !== 1) return;
    this.ws.send(JSON.stringify(command));
  }

  close(): void {
    this.ws.close(1000, "client closed");
  }

  private ended(reason: string): void {
    if (this.closedOnce) return;
    this.closedOnce = true;
    this.sink.closed(reason);
  }
}

function globalWebSocket(): WebSocketConstructor {
  const ctor: unknown = Reflect.get(globalThis, "WebSocket");
  if (!acceptsInit(ctor)) {
    throw new ShardError(
      "INVALID_REQUEST",
      "no global WebSocket in this runtime: use Bun, Node ≥ 22, `node --experimental-websocket` on Node 20, or pass the WebSocket option",
    );
  }
  return ctor;
}

/**
 * The global WebSocket of Bun and of Node (undici) takes `{ protocols, headers }` as its second
 * argument (the DOM typings know only `protocols`); any constructor there is one of those.
 */
function acceptsInit(ctor: unknown): ctor is WebSocketConstructor {
  return typeof ctor === "function";
}
