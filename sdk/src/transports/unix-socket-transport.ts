/**
 * The local daemon transport: `$SHARD_HOME/daemon.sock`, JSONL both ways (docs/protocol.md §1), via
 * `node:net` so it runs under Bun and Node alike. Local trust: no handshake beyond `hello`.
 */
import { createConnection, type Socket } from "node:net";
import { JsonlDecoder } from "../../../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../../../src/wire/jsonl-encoder.ts";
import { ShardError } from "../errors.ts";
import type { ClientCommand, Transport, TransportSink } from "./transport.ts";

export class UnixSocketTransport implements Transport {
  private closedOnce = false;

  private constructor(
    private readonly socket: Socket,
    private readonly sink: TransportSink,
  ) {}

  /** Resolves once connected; rejects with a ShardError saying how to start a daemon. */
  static open(path: string, sink: TransportSink): Promise<UnixSocketTransport> {
    return new Promise((resolve, reject) => {
      const socket = createConnection({ path });
      let transport: UnixSocketTransport | undefined;
      const decoder = new JsonlDecoder({ value: (v) => sink.message(v), error: (e) => sink.invalid(e) });
      socket.on("connect", () => {
        transport = new UnixSocketTransport(socket, sink);
        resolve(transport);
      });
      socket.on("data", (chunk: Buffer) => decoder.push(chunk));
      socket.on("error", (err: Error) => {
        if (!transport) {
          reject(
            new ShardError(
              "NOT_FOUND",
              `no daemon answers at ${path} (${err.message}); start one with \`shard daemon\``,
            ),
          );
        }
      });
      socket.on("close", () => transport?.ended("the daemon closed the connection"));
    });
  }

  send(command: ClientCommand): void {
    if (this.closedOnce) return;
    this.socket.write(encodeJsonLine(command));
  }

  close(): void {
    this.socket.end();
    this.socket.destroySoon();
  }

  private ended(reason: string): void {
    if (this.closedOnce) return;
    this.closedOnce = true;
    this.sink.closed(reason);
  }
}
