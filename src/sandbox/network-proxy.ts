/**
 * The filtering HTTP proxy a confined command reaches the network through (docs/sandbox.md#network).
 * It listens on a unix socket in the runtime's private area, which the sandbox sees at
 * `PROXY_SOCKET_INSIDE`; each connection carries one CONNECT tunnel or one absolute-form
 * http:// request to a host on the allowlist. Bad input gets an HTTP error and never an
 * exception: the proxy lives inside the runtime.
 */
import { rmSync } from "node:fs";
import net from "node:net";
import { describeError } from "../support/describe-error.ts";
import { type Failure, failure } from "../wire/errors.ts";
import { hostAllowed } from "./host-allowlist.ts";
import { parseProxyRequest, printable } from "./proxy-request.ts";

export interface NetworkProxyLimits {
  /** The most bytes a request head may have before its blank line. */
  maxHeadBytes: number;
  /** How long a client may take to send its request head. */
  headTimeoutMs: number;
  /** How long reaching the server may take. */
  connectTimeoutMs: number;
  /** A tunnel or request with no byte either way for this long is closed. */
  idleTimeoutMs: number;
  /** Connections beyond this get `503` at once. */
  maxConnections: number;
}

export const DEFAULT_PROXY_LIMITS: NetworkProxyLimits = {
  maxHeadBytes: 16 * 1024,
  headTimeoutMs: 30_000,
  connectTimeoutMs: 30_000,
  idleTimeoutMs: 300_000,
  maxConnections: 256,
};

const REASONS: Record<number, string> = {
  400: "Bad Request",
  403: "Forbidden",
  405: "Method Not Allowed",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
  505: "HTTP Version Not Supported",
};

/** The body of a refusal: what the command's output shows the model and the person. */
export function blockedMessage(host: string, allow: readonly string[]): string {
  return `blocked by the Shard sandbox's network allowlist: ${printable(host)}; allowed: ${allow.join(", ")}`;
}

export class NetworkProxy {
  private readonly sockets = new Set<net.Socket>();
  private failed: string | undefined;

  private constructor(
    private readonly server: net.Server,
    readonly socketPath: string,
    private readonly allow: readonly string[],
    private readonly limits: NetworkProxyLimits,
  ) {}

  /** Listens at once (the socket exists when this returns), so a command started next can connect. */
  static listen(
    socketPath: string,
    allow: readonly string[],
    limits: Partial<NetworkProxyLimits> = {},
  ): { ok: true; proxy: NetworkProxy } | Failure {
    // sun_path holds 107 bytes and a longer path would be cut silently by some kernels' callers.
    if (Buffer.byteLength(socketPath) > 107)
      return failure(
        "INTERNAL_ERROR",
        `the network proxy's socket path is too long for a unix socket: ${socketPath}`,
      );
    rmSync(socketPath, { force: true });
    const server = net.createServer({ allowHalfOpen: true });
    const proxy = new NetworkProxy(server, socketPath, [...allow], { ...DEFAULT_PROXY_LIMITS, ...limits });
    server.on("connection", (client) => proxy.accept(client));
    server.on("error", (error) => {
      proxy.failed = describeError(error);
    });
    try {
      server.listen(socketPath);
    } catch (error) {
      return failure(
        "INTERNAL_ERROR",
        `the network proxy could not listen on ${socketPath}: ${describeError(error)}`,
      );
    }
    return { ok: true, proxy };
  }

  /** Why the proxy stopped listening, if it did. */
  failure(): string | undefined {
    return this.failed;
  }

  close(): void {
    this.server.close();
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    rmSync(this.socketPath, { force: true });
  }

  private accept(client: net.Socket): void {
    client.on("error", () => client.destroy());
    if (this.sockets.size >= this.limits.maxConnections) {
      respond(
        client,
        503,
        `the sandbox's network proxy has ${this.limits.maxConnections} connections open already`,
      );
      return;
    }
    this.track(client);
    const headTimeout = (): void =>
      respond(client, 408, `no complete request head within ${this.limits.headTimeoutMs} ms`);
    client.setTimeout(this.limits.headTimeoutMs);
    client.on("timeout", headTimeout);
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf("\r\n\r\n");
      if (end === -1 ? received.length > this.limits.maxHeadBytes : end > this.limits.maxHeadBytes) {
        client.off("data", onData);
        respond(client, 431, `the request head is larger than ${this.limits.maxHeadBytes} bytes`);
        return;
      }
      if (end === -1) return;
      client.off("data", onData);
      client.off("timeout", headTimeout);
      client.pause();
      try {
        this.forward(client, received.subarray(0, end).toString("latin1"), received.subarray(end + 4));
      } catch (error) {
        respond(client, 502, `the sandbox's network proxy failed: ${describeError(error)}`);
      }
    };
    client.on("data", onData);
  }

  private forward(client: net.Socket, head: string, early: Buffer): void {
    const request = parseProxyRequest(head);
    if ("status" in request) {
      respond(client, request.status, request.message);
      return;
    }
    if (!hostAllowed(request.host, this.allow)) {
      respond(client, 403, blockedMessage(request.host, this.allow));
      return;
    }
    const where = `${request.host}:${request.port}`;
    const upstream = net.connect({ host: request.host, port: request.port, allowHalfOpen: true });
    this.track(upstream);
    let connected = false;
    const connectTimeout = (): void => {
      upstream.destroy();
      respond(client, 504, `${where} did not answer within ${this.limits.connectTimeoutMs} ms`);
    };
    upstream.setTimeout(this.limits.connectTimeoutMs);
    upstream.on("timeout", connectTimeout);
    upstream.on("error", (error) => {
      upstream.destroy();
      if (connected) client.destroy();
      else respond(client, 502, `could not reach ${where}: ${describeError(error)}`);
    });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => {
      if (connected) client.destroy();
    });
    upstream.once("connect", () => {
      connected = true;
      upstream.off("timeout", connectTimeout);
      const idle = (): void => {
        client.destroy();
        upstream.destroy();
      };
      for (const socket of [client, upstream]) {
        socket.setTimeout(this.limits.idleTimeoutMs);
        socket.on("timeout", idle);
      }
      if (request.kind === "connect") client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      else upstream.write(request.head, "latin1");
      if (early.length > 0) upstream.write(early);
      // pipe() stops reading one side while the other cannot take more: memory stays bounded.
      client.pipe(upstream);
      upstream.pipe(client);
    });
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
  }
}

/** One plain-text answer, then the connection closes (whatever else the client sends is dropped). */
function respond(client: net.Socket, status: number, message: string): void {
  if (client.destroyed || !client.writable) {
    client.destroy();
    return;
  }
  const body = `${message}\n`;
  client.removeAllListeners("data");
  client.removeAllListeners("timeout");
  client.resume();
  // The client has the answer; one that never closes its side is dropped soon after.
  client.setTimeout(5_000);
  client.on("timeout", () => client.destroy());
  client.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? "Error"}\r\n` +
      "Content-Type: text/plain; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      "Connection: close\r\n\r\n" +
      body,
  );
}
