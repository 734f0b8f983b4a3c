/**
 * The unix socket's bounded outbound buffer (docs/daemon.md): lines the peer has not taken yet
 * wait here, and past the outbound cap (outbound-cap.ts) the connection is closed rather than
 * slowing anyone.
 *
 * Lines queued in one task (say, every event of one chunk of runtime output) leave in one
 * write at the end of it (EndOfTask): one buffer and one syscall per client per chunk, not one
 * per event. Lines wait as the strings every client shares, so a stalled client holds
 * references, not copies, until its write.
 */
import { isOverOutboundCap } from "./outbound-cap.ts";
import { EndOfTask } from "./task-batch.ts";

export class OutboundBuffer {
  /** Lines not yet handed to the peer (as text, or already in UTF-8), and their size in UTF-8. */
  private lines: (string | Uint8Array)[] = [];
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
    this.linesBytes += byteLength;
    if (this.inFlight) {
      // Only a peer that has not taken the last write can fall behind.
      if (isOverOutboundCap(this.size, this.inFlight.length, this.capBytes)) this.overCap(this.size);
      return;
    }
    this.endOfTask.request();
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
    this.linesBytes = 0;
    this.inFlight = undefined;
  }

  private flush(): void {
    if (this.cleared || this.inFlight || this.lines.length === 0) return;
    const only = this.lines.length === 1 ? this.lines[0] : undefined;
    if (only !== undefined && typeof only !== "string") {
      this.lines = [];
      this.linesBytes = 0;
      this.send(only);
      return;
    }
    // Each line is encoded straight into one buffer of their summed size: no joined copy.
    const out = Buffer.allocUnsafe(this.linesBytes);
    let at = 0;
    for (const line of this.lines) {
      if (typeof line === "string") at += out.write(line, at);
      else {
        out.set(line, at);
        at += line.length;
      }
    }
    this.lines = [];
    this.linesBytes = 0;
    this.send(out.subarray(0, at));
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
