/**
 * A connection's bounded outbound buffer (ARCHITECTURE §6.1, PROTOCOL P2): bytes the peer has
 * not taken yet wait here; past the cap the connection is closed rather than slowing anyone.
 * The cap counts what waits behind the message being written, so one large message (a long
 * `message_complete`) never closes a client that is reading.
 */
export const DEFAULT_OUTBOUND_CAP_BYTES = 8 * 1024 * 1024;

export class OutboundBuffer {
  private readonly queue: Uint8Array[] = [];
  private queuedBytes = 0;

  constructor(
    /** Writes what it can, returns how many bytes it took (0 when the peer is full). */
    private readonly write: (bytes: Uint8Array) => number,
    private readonly capBytes: number,
    private readonly overCap: (queuedBytes: number) => void,
  ) {}

  get size(): number {
    return this.queuedBytes;
  }

  push(bytes: Uint8Array): void {
    if (this.queue.length === 0) {
      const taken = this.write(bytes);
      if (taken >= bytes.length) return;
      bytes = bytes.subarray(Math.max(0, taken));
    }
    this.queue.push(bytes);
    this.queuedBytes += bytes.length;
    const behindHead = this.queuedBytes - (this.queue[0]?.length ?? 0);
    if (behindHead > this.capBytes) this.overCap(this.queuedBytes);
  }

  /** The peer can take more (the socket's drain). */
  drain(): void {
    while (this.queue.length > 0) {
      const head = this.queue[0];
      if (!head) break;
      const taken = this.write(head);
      if (taken <= 0) return;
      this.queuedBytes -= Math.min(taken, head.length);
      if (taken < head.length) {
        this.queue[0] = head.subarray(taken);
        return;
      }
      this.queue.shift();
    }
  }

  clear(): void {
    this.queue.length = 0;
    this.queuedBytes = 0;
  }
}
