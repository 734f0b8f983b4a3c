/**
 * The unix socket transport: `$SHARD_HOME/daemon.sock`, JSONL both ways (PROTOCOL §2.1),
 * 0600 in a 0700 home even under `umask 000`. Each connection gets the daemon hello, then its
 * lines go to the broker one at a time, in order.
 */
import { chmodSync } from "node:fs";
import type { Socket, UnixSocketListener } from "bun";
import { newId } from "../support/ids.ts";
import { JsonlDecoder } from "../wire/jsonl-decoder.ts";
import type { Broker } from "./broker/broker.ts";
import type { ClientConnection, DaemonMessage } from "./broker/client-connection.ts";
import { EncodedMessage } from "./broker/encoded-message.ts";
import { daemonHello } from "./daemon-hello.ts";
import { OutboundBuffer } from "./outbound-buffer.ts";
import { overCapLogLine } from "./outbound-cap.ts";

export interface SocketOptions {
  path: string;
  maxMessageBytes: number;
  outboundCapBytes: number;
  log(line: string): void;
}

class SocketClient implements ClientConnection {
  readonly id = newId("conn");
  /** The 0600 socket is local trust (PROTOCOL §4.2): the auth.* commands are answered here. */
  readonly localTrust = true;
  readonly decoder: JsonlDecoder;
  readonly outbound: OutboundBuffer;
  /** Inbound messages are handled one after another (an attach finishes before the next line). */
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly socket: Socket<SocketClient | undefined>,
    private readonly broker: Broker,
    options: SocketOptions,
  ) {
    this.outbound = new OutboundBuffer(
      (bytes) => socket.write(bytes),
      options.outboundCapBytes,
      (queued) => {
        options.log(overCapLogLine(this.id, queued, options.outboundCapBytes));
        this.shut();
      },
    );
    this.decoder = new JsonlDecoder(
      {
        value: (value) => this.enqueue(() => this.broker.receive(this, value)),
        error: (error) => this.enqueue(async () => this.broker.unparsable(this, error)),
      },
      { maxLineBytes: options.maxMessageBytes },
    );
  }

  send(message: DaemonMessage): void {
    this.sendEncoded(EncodedMessage.of(message));
  }

  sendEncoded(message: EncodedMessage): void {
    if (this.closed) return;
    this.outbound.push(message.line, message.byteLength);
  }

  shut(): void {
    if (this.closed) return;
    this.closed = true;
    this.outbound.clear();
    this.broker.close(this);
    this.socket.end();
  }

  private enqueue(work: () => Promise<void>): void {
    this.chain = this.chain.then(work).catch(() => undefined);
  }
}

export function listenUnixSocket(
  broker: Broker,
  options: SocketOptions,
): UnixSocketListener<SocketClient | undefined> {
  const previous = process.umask(0o177);
  let listener: UnixSocketListener<SocketClient | undefined>;
  try {
    listener = Bun.listen<SocketClient | undefined>({
      unix: options.path,
      socket: {
        open(socket) {
          const client = new SocketClient(socket, broker, options);
          socket.data = client;
          broker.open(client);
          client.send(daemonHello("unix-socket"));
        },
        data(socket, chunk) {
          socket.data?.decoder.push(chunk);
        },
        drain(socket) {
          socket.data?.outbound.drain();
        },
        close(socket) {
          socket.data?.shut();
        },
        error(socket, error) {
          options.log(`connection ${socket.data?.id ?? "?"}: ${error.message}`);
          socket.data?.shut();
        },
      },
    });
  } finally {
    process.umask(previous);
  }
  // The umask already made it 0600; the chmod says so for filesystems that ignore it.
  chmodSync(options.path, 0o600);
  return listener;
}
