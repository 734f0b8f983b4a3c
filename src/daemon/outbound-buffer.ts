/**
 * The unix socket's bounded outbound buffer (docs/daemon.md): lines the peer has not taken yet
 * wait here, and past the outbound cap (outbound-cap.ts) the connection is closed rather than
 * slowing anyone.
 *
 * Lines queued in one task (say, every event of one chunk of runtime output) leave at the end
 * of it (EndOfTask): small ones encoded together into one buffer, one syscall per client per
 * chunk, not one per event. A delta run's bytes are a shared buffer's (`pushHeld`): written at
 * once, and what the peer leaves waits as a view of that buffer, held (not copied) until it is
 * written; a large one leaves as it is, not gathered into one new buffer with the rest. Text
 * lines wait as the strings every client shares. So a stalled client holds references, not
 * copies, until its write.
 */
import { isOverOutboundCap } from "./outbound-cap.ts";
import { EndOfTask } from "./task-batch.ts";

/** Bytes this large are written as they are; smaller lines are gathered into one buffer. */
const WRITTEN_AS_IS_BYTES = 16 * 1024;

/** Keeps shared bytes from being reused while a client still has to write them. */
export interface HeldBytes {
  retain(): void;
  release(): void;
}

export class OutboundBuffer {
  /** Lines not yet handed to the peer (as text, or already in UTF-8), and each one's UTF-8 size. */
  private lines: (string | Uint8Array)[] = [];
  private sizes: number[] = [];
  /** The hold on each line that is a view of shared bytes, given up once it is written. */
  private holds: (HeldBytes | undefined)[] = [];
  /** Their summed size. */
  private linesBytes = 0;
  /** What is left of the write the peer took only part of; set while blocked. */
  private inFlight: Uint8Array | undefined;
  private inFlightHold: HeldBytes | undefined;
  private cleared = false;
  private readonly endOfTask = new EndOfTask(() => this.flush());

  constructor(
    /** Writes what it can, returns how many bytes it took (0 when the peer is full). */
    private readonly write: (bytes: Uint8Array) => number,
    private readonly capBytes: number,
    private readonly overCap: (queuedBytes: number) => void,
  ) {}

  /** Bytes waiting, including the rest of the write in progress. */
  get size(): number {
    return this.linesBytes + (this.inFlight?.length ?? 0);
  }

  /**
   * `line` is one or more whole messages as sent (newlines included), as text or as its UTF-8
   * bytes (which are not copied, so they must not change), `byteLength` its exact size in UTF-8.
   */
  push(line: string | Uint8Array, byteLength: number): void {
    this.queue(line, byteLength, undefined);
  }

  /** Queues a line; a `hold` the caller took on it is the queue's to give up from now on. */
  private queue(line: string | Uint8Array, byteLength: number, hold: HeldBytes | undefined): void {
    if (this.cleared) {
      hold?.release();
      return;
    }
    this.lines.push(line);
    this.sizes.push(byteLength);
    this.holds.push(hold);
    this.linesBytes += byteLength;
    if (this.inFlight) {
      // Only a peer that has not taken the last write can fall behind.
      if (isOverOutboundCap(this.size, this.inFlight.length, this.capBytes)) this.overCap(this.size);
      return;
    }
    this.endOfTask.request();
  }

  /** A message in the form the broker encoded it (broker/encoded-message.ts: `wire`, `byteLength`, `hold`). */
  pushWire(wire: string | Uint8Array, byteLength: number, hold: HeldBytes | undefined): void {
    if (hold !== undefined && typeof wire !== "string") this.pushHeld(wire, hold);
    else this.push(wire, byteLength);
  }

  /**
   * `bytes` (whole messages, newlines included) are a view of shared bytes that `hold` keeps
   * from being reused (a delta run's buffer, ./broker/run-buffers.ts): written now, after the
   * lines waiting before them; what the peer does not take waits as that view, the bytes held
   * until it is written. The caller keeps its own hold.
   */
  pushHeld(bytes: Uint8Array, hold: HeldBytes): void {
    if (this.cleared) return;
    this.flush();
    if (this.cleared) return;
    hold.retain();
    if (this.inFlight !== undefined) this.queue(bytes, bytes.length, hold);
    else this.send(bytes, hold);
  }

  /** The peer can take more (the socket's drain). */
  drain(): void {
    const rest = this.inFlight;
    if (!rest) return;
    const hold = this.inFlightHold;
    this.inFlight = undefined;
    this.inFlightHold = undefined;
    if (this.send(rest, hold)) this.flush();
  }

  /** The peer is gone: nothing more is written, and every hold is given up. */
  clear(): void {
    this.cleared = true;
    const holds = this.holds;
    const inFlightHold = this.inFlightHold;
    this.lines = [];
    this.sizes = [];
    this.holds = [];
    this.linesBytes = 0;
    this.inFlight = undefined;
    this.inFlightHold = undefined;
    for (const hold of holds) hold?.release();
    inFlightHold?.release();
  }

  /** Writes the lines in order until they are all out or the peer takes only part of one. */
  private flush(): void {
    let next = 0;
    const { lines, sizes, holds } = this;
    while (!this.cleared && this.inFlight === undefined && next < lines.length) {
      const head = lines[next];
      let bytes: Uint8Array;
      let hold: HeldBytes | undefined;
      // Bytes alone or large leave as they are.
      if (typeof head === "object" && (next === lines.length - 1 || isWrittenAsIs(head))) {
        bytes = head;
        hold = holds[next];
        // Taken out before the write: a peer found gone there clears what is still queued.
        holds[next] = undefined;
        this.linesBytes -= head.length;
        next++;
      } else {
        // The small lines up to the next large run, encoded straight into one buffer.
        let end = next;
        let size = 0;
        while (end < lines.length && !isWrittenAsIs(lines[end])) size += sizes[end++] ?? 0;
        const out = Buffer.allocUnsafe(size);
        let at = 0;
        for (let i = next; i < end; i++) {
          const line = lines[i] ?? "";
          if (typeof line === "string") at += out.write(line, at);
          else {
            out.set(line, at);
            at += line.length;
          }
          // Copied: the shared bytes may be reused.
          const copied = holds[i];
          holds[i] = undefined;
          copied?.release();
        }
        this.linesBytes -= size;
        next = end;
        bytes = out.subarray(0, at);
      }
      this.send(bytes, hold);
    }
    if (this.cleared) return;
    if (next >= lines.length) {
      this.lines = [];
      this.sizes = [];
      this.holds = [];
    } else if (next > 0) {
      this.lines = lines.slice(next);
      this.sizes = sizes.slice(next);
      this.holds = holds.slice(next);
    }
  }

  /**
   * True when the peer took all of `bytes` (`hold`, the queue's hold on them, is given up);
   * otherwise the rest waits for its drain, still held.
   */
  private send(bytes: Uint8Array, hold: HeldBytes | undefined): boolean {
    const taken = Math.max(0, this.write(bytes));
    // `write` may have found the peer gone and cleared the buffer.
    if (taken >= bytes.length || this.cleared) {
      hold?.release();
      return true;
    }
    this.inFlight = bytes.subarray(taken);
    this.inFlightHold = hold;
    return false;
  }
}

function isWrittenAsIs(line: string | Uint8Array | undefined): boolean {
  return line !== undefined && typeof line !== "string" && line.length >= WRITTEN_AS_IS_BYTES;
}
