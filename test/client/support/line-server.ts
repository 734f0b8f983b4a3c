/**
 * A scripted JSONL server on a real unix socket, playing the daemon's side for the client
 * core's tests: it says `hello` on every connection (unless told not to), records each inbound
 * message, and lets the test answer, push events, or hang up — one connection at a time.
 */

import { join } from "node:path";
import type { Socket } from "bun";
import { isRecord } from "../../../src/support/is-record.ts";
import { JsonlDecoder } from "../../../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../../../src/wire/jsonl-encoder.ts";
import { makeTempDir } from "../../support/temp-dirs.ts";

export interface Received {
  connection: number;
  message: Record<string, unknown>;
}

export class LineServer {
  readonly path: string;
  private listener: ReturnType<typeof Bun.listen<undefined>> | undefined;
  private readonly sockets: Socket<undefined>[] = [];
  readonly received: Received[] = [];
  private waiters: { match(r: Received): boolean; resolve(r: Received): void }[] = [];
  private connectedWaiters: ((n: number) => void)[] = [];
  connections = 0;

  constructor(
    private readonly sayHello = true,
    private readonly protocolVersion = "0.1.0",
  ) {
    this.path = join(makeTempDir("shard-line-"), "s.sock");
  }

  start(): void {
    const decoders = new Map<Socket<undefined>, JsonlDecoder>();
    this.listener = Bun.listen({
      unix: this.path,
      socket: {
        open: (socket) => {
          const connection = ++this.connections;
          this.sockets.push(socket);
          decoders.set(
            socket,
            new JsonlDecoder({
              value: (value) => {
                if (isRecord(value)) this.record({ connection, message: value });
              },
              error: () => {},
            }),
          );
          if (this.sayHello)
            this.write(socket, {
              type: "hello",
              protocol_version: this.protocolVersion,
              server_version: "t",
              capabilities: [],
            });
          for (const w of this.connectedWaiters.splice(0)) w(connection);
        },
        data: (socket, chunk) => decoders.get(socket)?.push(chunk),
        close: (socket) => {
          decoders.delete(socket);
        },
      },
    });
  }

  /** Stops listening (new connections are refused) and hangs up the current one. */
  stop(): void {
    this.listener?.stop(true);
    this.listener = undefined;
    this.hangUp();
  }

  hangUp(): void {
    for (const s of this.sockets.splice(0)) s.terminate();
  }

  /** Sends to the newest connection. */
  push(message: object): void {
    const socket = this.sockets.at(-1);
    if (socket !== undefined) this.write(socket, message);
  }

  answer(request: Received, data: unknown = {}): void {
    this.push({
      type: "response",
      id: request.message.id,
      command: request.message.type,
      success: true,
      data,
    });
  }

  /** The next inbound message (from `from` on) that `match` accepts. */
  next(match: (r: Received) => boolean = () => true, from = 0): Promise<Received> {
    const seen = this.received.slice(from).find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** Resolves with the number of the `n`th connection once it is made. */
  connection(n: number): Promise<number> {
    if (this.connections >= n) return Promise.resolve(n);
    return new Promise((resolve) => {
      const wait = (c: number) => (c >= n ? resolve(c) : this.connectedWaiters.push(wait));
      this.connectedWaiters.push(wait);
    });
  }

  private record(r: Received): void {
    this.received.push(r);
    const keep = [];
    for (const w of this.waiters) {
      if (w.match(r)) w.resolve(r);
      else keep.push(w);
    }
    this.waiters = keep;
  }

  private write(socket: Socket<undefined>, message: object): void {
    socket.write(encodeJsonLine(message));
    socket.flush();
  }
}
