/**
 * The unix socket's bounded outbound buffer (docs/daemon.md): bytes the peer has not taken
 * yet wait here, and past the outbound cap the connection is closed rather than slowing
 * anyone. What one task sends leaves in one write at its end (TaskBatch).
 */
import { isOverOutboundCap } from "./outbound-cap.ts";
import { TaskBatch } from "./task-batch.ts";

export class OutboundBuffer {
  /** While `blocked`: `backlog[0]` is the rest of the write in progress, the rest waits behind it. */
  private backlog: Uint8Array[] = [];
  /** Everything not yet taken by the peer: this task's batch and the backlog. */
  private queuedBytes = 0;
  /** The peer took less than offered: wait for its drain before writing again. */
  private blocked = false;
  private cleared = false;
  private readonly batch = new TaskBatch<Uint8Array>((parts) => this.writeOut(parts));

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
    this.queuedBytes += bytes.length;
    if (!this.blocked) {
      this.batch.push(bytes);
      return;
    }
    this.backlog.push(bytes);
    // Only a peer that has not taken the last write can fall behind.
    const inFlight = this.backlog[0]?.length ?? 0;
    if (isOverOutboundCap(this.queuedBytes, inFlight, this.capBytes)) this.overCap(this.queuedBytes);
  }

  /** The peer can take more (the socket's drain). */
  drain(): void {
    if (!this.blocked) return;
    this.blocked = false;
    const backlog = this.backlog;
    this.backlog = [];
    this.writeOut(backlog);
  }

  clear(): void {
    this.cleared = true;
    this.backlog = [];
    this.queuedBytes = 0;
    this.batch.clear();
  }

  private writeOut(parts: Uint8Array[]): void {
    if (this.cleared || parts.length === 0) return;
    const [only] = parts;
    const blob = parts.length === 1 && only ? only : Buffer.concat(parts);
    const taken = Math.max(0, this.write(blob));
    if (taken >= blob.length) {
      this.queuedBytes -= blob.length;
      return;
    }
    this.backlog = [blob.subarray(taken)];
    this.queuedBytes -= taken;
    this.blocked = true;
  }
}
