/**
 * A connection's bounded outbound buffer (ARCHITECTURE §6.1, PROTOCOL P2): bytes the peer has
 * not taken yet wait here; past the cap the connection is closed rather than slowing anyone.
 * The cap counts what waits behind the write in progress, so one large message (a long
 * `message_complete`) never closes a client that is reading.
 *
 * Messages queued in one task (say, every event of one chunk of runtime output) leave in one
 * write at the end of it: one syscall per client per chunk, not one per event.
 */
export const DEFAULT_OUTBOUND_CAP_BYTES = 8 * 1024 * 1024;

export class OutboundBuffer {
  /** `queue[0]` is the write in progress while `blocked`; the rest waits behind it. */
  private queue: Uint8Array[] = [];
  private queuedBytes = 0;
  private scheduled = false;
  /** The peer took less than offered: wait for its drain before writing again. */
  private blocked = false;
  private cleared = false;

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
    if (this.cleared) return;
    this.queue.push(bytes);
    this.queuedBytes += bytes.length;
    if (this.blocked) {
      // Only a peer that has not taken the last write can fall behind.
      const behind = this.queuedBytes - (this.queue[0]?.length ?? 0);
      if (behind > this.capBytes) this.overCap(this.queuedBytes);
      return;
    }
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(() => this.flush());
    }
  }

  /** The peer can take more (the socket's drain). */
  drain(): void {
    this.blocked = false;
    this.flush();
  }

  clear(): void {
    this.cleared = true;
    this.queue = [];
    this.queuedBytes = 0;
  }

  private flush(): void {
    this.scheduled = false;
    if (this.blocked || this.queue.length === 0) return;
    const blob = this.queue.length === 1 ? (this.queue[0] as Uint8Array) : Buffer.concat(this.queue);
    const taken = Math.max(0, this.write(blob));
    if (taken >= blob.length) {
      this.queue = [];
      this.queuedBytes = 0;
      return;
    }
    this.queue = [blob.subarray(taken)];
    this.queuedBytes = blob.length - taken;
    this.blocked = true;
  }
}
