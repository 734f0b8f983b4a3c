/**
 * A WebSocket client on a bare TCP socket (node:net, the handshake written by hand) that never
 * answers a close frame and never closes its side (half-open allowed): what a misbehaving peer
 * does. It can stop reading, and it tells when the daemon really closed the TCP connection.
 */
import { createConnection, type Socket } from "node:net";

/** Opcode of a WebSocket ping frame (RFC 6455 §5.5.2). */
const PING = 0x9;
const TEXT = 0x1;

export class RawWebSocket {
  /** Resolves when the TCP connection is gone (the daemon's side closed, not merely shut down). */
  readonly closed: Promise<void>;
  /** Bytes received after the handshake. */
  received = 0;
  /** The last bytes received, as text: enough to spot a short answer. */
  private tail = "";
  private readonly waiters: { text: string; resolve: () => void }[] = [];
  private probing: ReturnType<typeof setInterval> | undefined;

  private constructor(private readonly socket: Socket) {
    this.closed = new Promise((resolve) => socket.once("close", () => resolve()));
    // A FIN from the daemon is not the end: Bun's close() sends one and still keeps the socket.
    // Writing on tells the two apart: a closed socket answers with a reset, which ends ours.
    socket.on("end", () => {
      this.probing = setInterval(() => this.sendFrame(PING, Buffer.alloc(0)), 50);
    });
    socket.on("close", () => clearInterval(this.probing));
    socket.on("error", () => undefined);
  }

  /** Connects and upgrades; `headers` are the upgrade's extra headers (Host, Origin, protocols). */
  static connect(port: number, headers: Record<string, string>): Promise<RawWebSocket> {
    return new Promise((resolve, reject) => {
      const socket = createConnection({ host: "127.0.0.1", port, allowHalfOpen: true });
      const lines = [
        "GET /ws HTTP/1.1",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ];
      let head = Buffer.alloc(0);
      const onData = (chunk: Buffer) => {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf("\r\n\r\n");
        if (end < 0) return;
        socket.off("data", onData);
        const status = head.subarray(0, end).toString("latin1").split("\r\n")[0] ?? "";
        if (!status.includes(" 101 ")) {
          socket.destroy();
          reject(new Error(`the upgrade was refused: ${status}`));
          return;
        }
        const client = new RawWebSocket(socket);
        client.take(head.subarray(end + 4));
        socket.on("data", (more: Buffer) => client.take(more));
        resolve(client);
      };
      socket.on("data", onData);
      socket.once("error", reject);
      socket.write(`${lines.join("\r\n")}\r\n\r\n`);
    });
  }

  /** Resolves once `text` has been received (within the last 4 KiB at that moment). */
  waitFor(text: string): Promise<void> {
    if (this.tail.includes(text)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ text, resolve }));
  }

  private take(chunk: Buffer): void {
    this.received += chunk.length;
    this.tail = (this.tail + chunk.toString("latin1")).slice(-4096);
    for (const waiter of [...this.waiters]) {
      if (!this.tail.includes(waiter.text)) continue;
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }

  /** One masked text frame (any length). */
  sendText(text: string): void {
    this.sendFrame(TEXT, Buffer.from(text));
  }

  /** Stops reading: what the daemon sends piles up in the kernel's buffers and then in its own. */
  stopReading(): void {
    this.socket.pause();
  }

  resumeReading(): void {
    this.socket.resume();
  }

  destroy(): void {
    clearInterval(this.probing);
    this.socket.destroy();
  }

  private sendFrame(opcode: number, payload: Buffer): void {
    if (this.socket.destroyed) return;
    const length =
      payload.length < 126
        ? Buffer.from([0x80 | payload.length])
        : payload.length < 65536
          ? Buffer.from([0x80 | 126, payload.length >> 8, payload.length & 0xff])
          : Buffer.concat([Buffer.from([0x80 | 127]), bigEndian64(payload.length)]);
    const mask = Buffer.from([0x11, 0x22, 0x33, 0x44]);
    const masked = Buffer.from(payload.map((byte, i) => byte ^ (mask[i % 4] ?? 0)));
    this.socket.write(Buffer.concat([Buffer.from([0x80 | opcode]), length, mask, masked]));
  }
}

function bigEndian64(n: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(BigInt(n));
  return out;
}
