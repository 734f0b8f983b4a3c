/**
 * Where a daemon is and how to open one connection to it: the local unix socket
 * (`$SHARD_HOME/daemon.sock`, default `~/.shard`) or a remote WebSocket with a fresh ticket.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { originOf, type RemoteDaemon, type TicketSource } from "./remote-auth.ts";
import type { Transport, TransportSink } from "./transports/transport.ts";
import { UnixSocketTransport } from "./transports/unix-socket-transport.ts";
import { type WebSocketConstructor, WebSocketTransport } from "./transports/websocket-transport.ts";

export interface LocalDaemonTarget {
  /** Default `$SHARD_HOME/daemon.sock`. */
  socketPath?: string;
  /** The daemon's SHARD_HOME, when not the environment's. */
  home?: string;
}

export interface RemoteDaemonTarget extends RemoteDaemon {
  ticket: TicketSource;
  /** A WebSocket constructor taking `{ protocols, headers }` (default: the global one). */
  WebSocket?: WebSocketConstructor;
}

export type DaemonTarget = LocalDaemonTarget | RemoteDaemonTarget;

function isRemote(target: DaemonTarget): target is RemoteDaemonTarget {
  return "url" in target;
}

export function describeTarget(target: DaemonTarget): string {
  return isRemote(target) ? target.url : socketPathOf(target);
}

export function socketPathOf(target: LocalDaemonTarget): string {
  if (target.socketPath !== undefined) return target.socketPath;
  const home = target.home ?? process.env.SHARD_HOME ?? join(homedir(), ".shard");
  return join(home, "daemon.sock");
}

export async function openTransport(target: DaemonTarget, sink: TransportSink): Promise<Transport> {
  if (!isRemote(target)) return UnixSocketTransport.open(socketPathOf(target), sink);
  const ticket = await target.ticket();
  const url = new URL("/ws", target.url);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return WebSocketTransport.open(
    {
      url: url.toString(),
      ticket,
      origin: originOf(target),
      ...(target.WebSocket ? { WebSocket: target.WebSocket } : {}),
    },
    sink,
  );
}
