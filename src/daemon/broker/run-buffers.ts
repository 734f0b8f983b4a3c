/**
 * The buffers delta runs are written into (./delta-run.ts), shared by every client that is sent
 * the run. A client whose peer cannot take a run at once keeps the buffer itself (`retain`),
 * not a copy of what is left, and lets go of it once that is written (`release`); a buffer
 * nobody holds goes back to the pool for the next run. So a turn streamed to clients that fall
 * behind costs no copy per client and, once the pool has grown to the clients' lag, no fresh
 * memory (each fresh page is a fault, ~10 µs on a VM) — where a copy per run and client was
 * both. What a client holds still counts against its outbound cap (src/daemon/outbound-cap.ts).
 */
import type { HeldBytes } from "../outbound-buffer.ts";

/** A run of usual size fits (a chunk of runtime output is ~64–220 KB, ~1.3× that routed). */
const RUN_BUFFER_BYTES = 512 * 1024;
/** Idle buffers kept for the next runs; more are let go (memory a past lag needed). */
const IDLE_KEPT = 4;

export class RunBuffer implements HeldBytes {
  private holders = 1;

  constructor(
    private readonly pool: RunBufferPool,
    /** The buffer's memory; replaced by a larger one when a run outgrows it (`grow`). */
    public bytes: Buffer,
  ) {}

  /** Room for `need` bytes, keeping the first `used`. */
  grow(need: number, used: number): void {
    const grown = Buffer.allocUnsafe(Math.max(need, this.bytes.length * 2));
    this.bytes.copy(grown, 0, 0, used);
    this.bytes = grown;
  }

  retain(): void {
    if (this.holders === 0) throw new Error("a run buffer was retained after it went back to its pool");
    this.holders++;
  }

  release(): void {
    if (this.holders === 0) throw new Error("a run buffer was released more often than it was held");
    this.holders--;
    if (this.holders === 0) this.pool.give(this);
  }

  /** Taken from the pool again: its taker is its one holder. */
  reuse(): this {
    this.holders = 1;
    return this;
  }
}

export class RunBufferPool {
  private readonly idle: RunBuffer[] = [];
  private prepared = false;

  /**
   * The first buffer, with its pages touched now (when the first agent is made), not during its
   * first turn. `Buffer.alloc` would not do it: zeroed memory from the OS comes untouched.
   */
  prepare(): void {
    if (this.prepared) return;
    this.prepared = true;
    this.idle.push(new RunBuffer(this, Buffer.allocUnsafe(RUN_BUFFER_BYTES).fill(0)));
  }

  /** A buffer no client holds, its taker holding it. */
  take(): RunBuffer {
    return this.idle.pop()?.reuse() ?? new RunBuffer(this, Buffer.allocUnsafe(RUN_BUFFER_BYTES));
  }

  /** How many idle buffers wait for a run. */
  get idleCount(): number {
    return this.idle.length;
  }

  give(buffer: RunBuffer): void {
    // One grown far past a chunk of usual size is let go.
    if (this.idle.length < IDLE_KEPT && buffer.bytes.length <= 4 * RUN_BUFFER_BYTES) this.idle.push(buffer);
  }
}

/** Every agent's runs come from this pool (the daemon's JS is one thread). */
export const runBuffers = new RunBufferPool();
