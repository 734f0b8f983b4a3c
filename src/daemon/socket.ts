/**
 * The unix socket transport: `$SHARD_HOME/daemon.sock`, JSONL both ways (docs/protocol.md §1),
 * 0600 in a 0700 home even under `umask 000`. Each connection gets the daemon hello, then its
 * lines go to the broker one at a time, in order, through a bounded queue: while it is full the
 * socket is not read (the client's writes block), and a closed connection's queued lines are
 * dropped.
 */
import { chmodSync } from "node:fs";
import type { Socket, UnixSocketListener } from "bun";
import { newId } from "../support/ids.ts";
import { JsonlDecoder } from "../wire/jsonl-decoder.ts";
import type { Broker } from "./broker/broker.ts";
import type { ClientConnection, DaemonMessage } from "./broker/client-connection.ts";
import { EncodedMessage } from "./broker/encoded-message.ts";
import { daemonHello } from "./daemon-hello.ts";
import { droppedLogLine, pausedLogLine } from "./inbound-log.ts";
import { type InboundLimits, InboundQueue } from "./inbound-queue.ts";
import { OutboundBuffer } from "./outbound-buffer.ts";
import { overCapLogLine } from "./outbound-cap.ts";

export interface SocketOptions {
  path: string;
  maxMessageBytes: number;
  outboundCapBytes: number;
  inboundLimits: InboundLimits;
  log(line: string): void;
  /**
   * A runtime's subagent link (docs/placements.md): its connections act for this agent only and
   * have no local trust.
   */
  agentScope?: string;
}

class SocketClient implements ClientConnection {
  readonly id = newId("conn");
  /**
   * The 0600 socket is local trust (docs/protocol.md §3.3): the auth.* commands are answered here.
   */
  readonly localTrust: boolean;
  readonly agentScope?: string;
  readonly decoder: JsonlDecoder;
  readonly outbound: OutboundBuffer;
  /** Inbound messages are handled one after another (an attach finishes before the next line). */
  private readonly inbound: InboundQueue;
  private closed = false;
  private pauseLogged = false;
  private readonly log: (line: string) => void;

  constructor(
    private readonly socket: Socket<SocketClient | undefined>,
    private readonly broker: Broker,
    options: SocketOptions,
  ) {
    this.log = options.log;
    this.localTrust = options.agentScope === undefined;
    if (options.agentScope !== undefined) this.agentScope = options.agentScope;
    this.outbound = new OutboundBuffer(
      (bytes) => {
        const written = socket.write(bytes);
        // -1: the peer is gone. While reading is paused Bun does not report the close, so the
        // first write after it is where the daemon learns of it (and drops the queue).
        if (written < 0) this.shut();
        return Math.max(0, written);
      },
      options.outboundCapBytes,
      (queued) => {
        options.log(overCapLogLine(this.id, queued, options.outboundCapBytes));
        this.shut();
      },
    );
    this.inbound = new InboundQueue(options.inboundLimits, {
      pause: (queued) => {
        socket.pause();
        if (this.pauseLogged) return;
        this.pauseLogged = true;
        options.log(pausedLogLine(this.id, queued));
      },
      resume: () => socket.resume(),
    });
    this.decoder = new JsonlDecoder(
      {
        value: (value, line) => this.inbound.push(line.length, () => this.broker.receive(this, value)),
        error: (error) => this.inbound.push(0, async () => this.broker.unparsable(this, error)),
      },
      { maxLineBytes: options.maxMessageBytes },
    );
  }

  send(message: DaemonMessage): void {
    // A subagent link hears its own answers only: no other agent's events cross the hop.
    if (this.agentScope !== undefined && message.type !== "response" && message.type !== "hello") return;
    this.push(EncodedMessage.of(message));
  }

  sendEncoded(message: EncodedMessage): void {
    if (this.agentScope !== undefined) return;
    this.push(message);
  }

  private push(message: EncodedMessage): void {
    if (this.closed) return;
    this.outbound.pushWire(message.wire, message.byteLength, message.hold);
  }

  shut(): void {
    if (this.closed) return;
    this.closed = true;
    const dropped = this.inbound.close();
    if (dropped > 0) this.log(droppedLogLine(this.id, dropped));
    this.outbound.clear();
    this.broker.close(this);
    this.socket.end();
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
