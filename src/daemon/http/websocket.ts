/**
 * The WebSocket transport (docs/protocol.md §1): one JSON message per text frame. A binary frame or
 * an over-size one gets INVALID_REQUEST and the connection carries on; a frame past Bun's
 * `maxPayloadLength` (twice our limit) is closed by Bun with 1009. The server pings shortly
 * before `idleTimeout` and drops a peer that stops answering. Inbound messages wait in a bounded
 * queue: while it is full the socket is paused (Bun stops reading it; the peer sees TCP
 * backpressure), and a closed connection's queued messages are dropped.
 *
 * The daemon ends a connection itself (its browser was revoked, or it is over the outbound cap)
 * with `terminate()`: the TCP connection is closed at once, without a close frame. Bun's
 * `close()` sends the frame and then keeps the socket until the peer answers or Bun's own
 * timeout (seconds, from `idleTimeout`) fires, and a `terminate()` after it does nothing, so
 * a peer that never answered would keep the connection (docs/daemon.md).
 */
import type { ServerWebSocket, WebSocketHandler } from "bun";
import { describeError } from "../../support/describe-error.ts";
import { newId } from "../../support/ids.ts";
import type { Broker } from "../broker/broker.ts";
import type { ClientConnection, DaemonMessage } from "../broker/client-connection.ts";
import { EncodedMessage } from "../broker/encoded-message.ts";
import { daemonHello } from "../daemon-hello.ts";
import { droppedLogLine, pausedLogLine } from "../inbound-log.ts";
import { type InboundLimits, InboundQueue } from "../inbound-queue.ts";
import { isOverOutboundCap, overCapLogLine } from "../outbound-cap.ts";
import { TaskBatch } from "../task-batch.ts";
import type { WsConnections } from "./ws-connections.ts";

export interface WsData {
  principal: string;
  /** The enrolled browser's label, when it has one. */
  label?: string;
  client?: WsClient;
}

export interface WebSocketOptions {
  maxMessageBytes: number;
  outboundCapBytes: number;
  inboundLimits: InboundLimits;
  /** Seconds of silence before the server pings; 30 unless a test says otherwise. */
  idleTimeoutS?: number;
  /** Open connections by principal, so revoking a browser closes its sockets. */
  connections: WsConnections;
  log(line: string): void;
}

/** Seconds without traffic before the server pings (and, unanswered, drops the peer). */
export const WS_IDLE_TIMEOUT_S = 30;
/** Bun's own backpressure limit sits this far above the cap. */
export const LARGE_FRAME_ALLOWANCE_BYTES = 64 * 1024 * 1024;

class WsClient implements ClientConnection {
  readonly id = newId("conn");
  readonly source: string | undefined;
  /** Browser-authenticated, not local: the auth.* commands are refused here. */
  readonly localTrust = false;
  private readonly inbound: InboundQueue;
  private closed = false;
  private pauseLogged = false;
  private largestInFlight = 0;
  /** Frames of one task leave together, corked (one write), at its end. */
  private readonly batch = new TaskBatch<string>((frames) => this.flush(frames));

  constructor(
    private readonly ws: ServerWebSocket<WsData>,
    private readonly broker: Broker,
    private readonly options: WebSocketOptions,
  ) {
    this.source = ws.data.label ? `browser:${ws.data.label}` : undefined;
    this.inbound = new InboundQueue(options.inboundLimits, {
      pause: (queued) => {
        ws.pause();
        if (this.pauseLogged) return;
        this.pauseLogged = true;
        options.log(pausedLogLine(this.id, queued));
      },
      resume: () => ws.resume(),
    });
  }

  send(message: DaemonMessage): void {
    this.sendEncoded(EncodedMessage.of(message));
  }

  sendEncoded(message: EncodedMessage): void {
    if (this.closed) return;
    for (const frame of message.frames) this.batch.push(frame);
  }

  private flush(frames: string[]): void {
    if (this.closed) return;
    // 0: Bun dropped a frame (past backpressureLimit). A gap is never acceptable: close instead.
    const dropped = this.ws.cork(() => frames.some((frame) => this.ws.send(frame) === 0));
    const buffered = this.ws.getBufferedAmount();
    if (dropped) {
      this.overCap(buffered);
      return;
    }
    const cap = this.options.outboundCapBytes;
    if (!isOverOutboundCap(buffered, 0, cap)) {
      this.largestInFlight = 0;
      return;
    }
    // Bun keeps the frames in flight itself; the largest one sent since the buffer was last
    // within the cap stands for the write in progress.
    for (const frame of frames)
      this.largestInFlight = Math.max(this.largestInFlight, Buffer.byteLength(frame));
    if (isOverOutboundCap(buffered, this.largestInFlight, cap)) this.overCap(buffered);
  }

  private overCap(buffered: number): void {
    this.options.log(overCapLogLine(this.id, buffered, this.options.outboundCapBytes));
    this.shut();
  }

  receive(frame: string | Buffer): void {
    if (typeof frame !== "string") {
      this.inbound.push(0, async () =>
        this.broker.unparsable(this, {
          code: "INVALID_REQUEST",
          message: "binary frames are not used; send one JSON message per text frame",
        }),
      );
      return;
    }
    if (
      frame.length * 3 > this.options.maxMessageBytes &&
      Buffer.byteLength(frame) > this.options.maxMessageBytes
    ) {
      this.inbound.push(0, async () =>
        this.broker.unparsable(this, {
          code: "INVALID_REQUEST",
          message: `frame exceeds the ${this.options.maxMessageBytes}-byte limit and was skipped`,
        }),
      );
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(frame);
    } catch (err) {
      const message = `bad JSON: ${describeError(err)}`;
      this.inbound.push(0, async () => this.broker.unparsable(this, { code: "INVALID_REQUEST", message }));
      return;
    }
    this.inbound.push(frame.length, () => this.broker.receive(this, value));
  }

  /** The daemon ends the connection (revoked, over the cap): the TCP connection closes now. */
  shut(): void {
    if (!this.forget()) return;
    this.ws.terminate();
  }

  /** The connection closed (by the peer, or by `shut`): it gets nothing more. False if it already had. */
  forget(): boolean {
    if (this.closed) return false;
    this.closed = true;
    const dropped = this.inbound.close();
    if (dropped > 0) this.options.log(droppedLogLine(this.id, dropped));
    this.broker.close(this);
    return true;
  }
}

export function websocketHandler(broker: Broker, options: WebSocketOptions): WebSocketHandler<WsData> {
  return {
    data: { principal: "" },
    // Bun closes past this; frames between our limit and it get INVALID_REQUEST instead.
    maxPayloadLength: options.maxMessageBytes * 2,
    // Room for our cap plus one large frame: Bun never drops a frame before our own check
    // (which closes the client) has seen the buffer over the cap.
    backpressureLimit: options.outboundCapBytes + LARGE_FRAME_ALLOWANCE_BYTES,
    closeOnBackpressureLimit: false,
    idleTimeout: options.idleTimeoutS ?? WS_IDLE_TIMEOUT_S,
    sendPings: true,
    open(ws) {
      const client = new WsClient(ws, broker, options);
      ws.data.client = client;
      options.connections.add(ws.data.principal, client);
      broker.open(client);
      client.send(daemonHello("websocket"));
    },
    message(ws, frame) {
      ws.data.client?.receive(frame);
    },
    close(ws) {
      const client = ws.data.client;
      if (!client) return;
      options.connections.remove(ws.data.principal, client);
      client.forget();
    },
  };
}
