/**
 * The unix socket's bounded outbound buffer (docs/daemon.md): lines the peer has not taken yet
 * wait here, and past the outbound cap (outbound-cap.ts) the connection is closed rather than
 * slowing anyone.
 *
 * Lines queued in one task (say, every event of one chunk of runtime output) leave at the end
 * of it (EndOfTask): small ones encoded together into one buffer, one syscall per client per
 * chunk, not one per event. A delta run's bytes are transient (`pushTransient`): written at
 * once, and only what the peer leaves is copied; such a copy waiting for a peer that fell
 * behind leaves as it is when large, not gathered again into one new buffer with the rest.
 * Text lines wait as the strings every client shares, so a stalled client holds references,
 * not copies, until its write.
 */
import { isOverOutboundCap } from "./outbound-cap.ts";
import { EndOfTask } from "./task-batch.ts";

/** Bytes this large are written as they are; smaller lines are gathered into one buffer. */
const WRITTEN_AS_IS_BYTES = 16 * 1024;

export class OutboundBuffer {
  /** Lines not yet handed to the peer (as text, or already in UTF-8), and each one's UTF-8 size. */
  private lines: (string | Uint8Array)[] = [];
  private sizes: number[] = [];
  /** Their summed size. */
  private linesBytes = 0;
  /** What is left of the write the peer took only part of; set while blocked. */
  private inFlight: Uint8Array | undefined;
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
    if (this.cleared) return;
    this.lines.push(line);
    this.sizes.push(byteLength);
    this.linesBytes += byteLength;
    if (this.inFlight) {
      // Only a peer that has not taken the last write can fall behind.
      if (isOverOutboundCap(this.size, this.inFlight.length, this.capBytes)) this.overCap(this.size);
      return;
    }
    this.endOfTask.request();
  }

  /** A message in the form the broker encoded it (broker/encoded-message.ts: `wire`, `byteLength`, `transient`). */
  pushWire(wire: string | Uint8Array, byteLength: number, transient: boolean): void {
    if (transient && typeof wire !== "string") this.pushTransient(wire);
    else this.push(wire, byteLength);
  }

  /**
   * `bytes` (whole messages, newlines included) are valid only during this call (a delta run in
   * its writer's scratch, ./broker/delta-run.ts): they are written now, after the lines waiting
   * before them, and only what the peer does not take is copied. A peer that is behind gets a
   * copy queued, as any line would wait.
   */
  pushTransient(bytes: Uint8Array): void {
    if (this.cleared) return;
    this.flush();
    if (this.cleared) return;
    // Copies made with the Uint8Array constructor: a Buffer's `slice` is a view.
    if (this.inFlight !== undefined) {
      this.push(new Uint8Array(bytes), bytes.length);
      return;
    }
    const taken = Math.max(0, this.write(bytes));
    if (taken < bytes.length && !this.cleared) this.inFlight = new Uint8Array(bytes.subarray(taken));
  }

  /** The peer can take more (the socket's drain). */
  drain(): void {
    const rest = this.inFlight;
    if (!rest) return;
    this.inFlight = undefined;
    if (this.send(rest)) this.flush();
  }

  clear(): void {
    this.cleared = true;
    this.lines = [];
    this.sizes = [];
    this.linesBytes = 0;
    this.inFlight = undefined;
  }

  /** Writes the lines in order until they are all out or the peer takes only part of one. */
  private flush(): void {
    let next = 0;
    const { lines, sizes } = this;
    while (!this.cleared && this.inFlight === undefined && next < lines.length) {
      const head = lines[next];
      let bytes: Uint8Array;
      // Bytes alone or large leave as they are.
      if (typeof head === "object" && (next === lines.length - 1 || isWrittenAsIs(head))) {
        bytes = head;
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
        }
        this.linesBytes -= size;
        next = end;
        bytes = out.subarray(0, at);
      }
      this.send(bytes);
    }
    if (this.cleared) return;
    if (next >= lines.length) {
      this.lines = [];
      this.sizes = [];
    } else if (next > 0) {
      this.lines = lines.slice(next);
      this.sizes = sizes.slice(next);
    }
  }

  /** True when the peer took all of `bytes`; otherwise the rest waits for its drain. */
  private send(bytes: Uint8Array): boolean {
    const taken = Math.max(0, this.write(bytes));
    // `write` may have found the peer gone and cleared the buffer.
    if (taken >= bytes.length || this.cleared) return true;
    this.inFlight = bytes.subarray(taken);
    return false;
  }
}

function isWrittenAsIs(line: string | Uint8Array | undefined): boolean {
  return line !== undefined && typeof line !== "string" && line.length >= WRITTEN_AS_IS_BYTES;
}
