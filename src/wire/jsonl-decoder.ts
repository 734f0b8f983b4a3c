/**
 * LF-only JSONL decoder (docs/protocol.md §1). Splits raw bytes on 0x0A — never `readline`,
 * which also splits on U+2028/U+2029 — strips one trailing CR, and decodes UTF-8 only over
 * complete lines so a multi-byte character split across chunks is never mangled.
 */

import { describeError } from "../support/describe-error.ts";
import type { WireError } from "./errors.ts";

export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export interface JsonlSink {
  /** A complete, parsed line; `line` is its text (without the LF and one trailing CR). */
  value(value: unknown, line: string): void;
  /** A line that could not be used; the stream carries on at the next line. */
  error(error: WireError): void;
  /**
   * Offered each line before it is parsed; true when the sink took it as text, and it is not
   * parsed (the daemon's fast path for a runtime's delta lines, src/wire/delta-line.ts).
   * `ascii`: the line came as ASCII bytes only, so its UTF-8 size is its length (false says
   * nothing: it is known per decoded chunk).
   */
  text?(line: string, ascii: boolean): boolean;
  /**
   * Offered a chunk's complete lines from `from` when they came as ASCII bytes only (`bytes`:
   * those bytes, so a character's index is its byte's): the sink may take a run of whole lines
   * there, in place, without a string per line (the daemon's delta runs). Returns where the
   * lines it took end (after the last one's LF, or at the text's end) and how many they are;
   * undefined when it took none. The lines it leaves go on as usual, one at a time.
   */
  run?(text: string, from: number, bytes: Uint8Array): RunTaken | undefined;
}

export interface RunTaken {
  end: number;
  lines: number;
}

const LF = 0x0a;

export class JsonlDecoder {
  private readonly maxLineBytes: number;
  private readonly utf8 = new TextDecoder("utf-8");
  /** Bytes of the current, not yet terminated line. */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** Set while skipping the rest of an over-long line. */
  private discarding = false;
  private lineNo = 0;

  constructor(
    private readonly sink: JsonlSink,
    options: { maxLineBytes?: number } = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  push(chunk: Uint8Array): void {
    let start = 0;
    // A line that began in an earlier chunk is finished from bytes.
    if (this.pendingBytes > 0 || this.discarding) {
      const lf = chunk.indexOf(LF);
      if (lf === -1) {
        this.buffer(chunk);
        return;
      }
      this.buffer(chunk.subarray(0, lf));
      this.finishPending();
      start = lf + 1;
    }
    // Every complete line left in this chunk is decoded in one go: an LF byte never occurs
    // inside a multi-byte UTF-8 sequence, so the text up to the last LF is whole characters.
    const lastLf = chunk.lastIndexOf(LF);
    if (lastLf >= start) {
      const bytes = chunk.subarray(start, lastLf);
      const text = this.utf8.decode(bytes);
      const ascii = isAscii(text, bytes.length);
      const run = ascii ? this.sink.run : undefined;
      let from = 0;
      for (;;) {
        if (run !== undefined) {
          const taken = run.call(this.sink, text, from, bytes);
          if (taken !== undefined) {
            this.lineNo += taken.lines;
            from = taken.end;
            if (from >= text.length) break;
          }
        }
        const nl = text.indexOf("\n", from);
        this.finishText(nl === -1 ? text.slice(from) : text.slice(from, nl), ascii);
        if (nl === -1) break;
        from = nl + 1;
      }
      start = lastLf + 1;
    }
    if (start < chunk.length) this.buffer(chunk.subarray(start));
  }

  /**
   * End of stream: an unterminated final line is reported, not silently used or dropped; one
   * over the limit is reported like any other over-long line.
   */
  end(): void {
    if (this.discarding) {
      this.finishPending();
      return;
    }
    if (this.pendingBytes === 0) return;
    const bytes = this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    this.lineNo++;
    this.sink.error({
      code: "INVALID_REQUEST",
      message: `line ${this.lineNo}: unterminated final line (${bytes} bytes without a trailing LF) was ignored`,
    });
  }

  private buffer(part: Uint8Array): void {
    if (this.discarding || part.length === 0) return;
    if (this.pendingBytes + part.length > this.maxLineBytes) {
      this.discarding = true;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    // Copy: the caller may reuse its chunk buffer.
    this.pending.push(part.slice());
    this.pendingBytes += part.length;
  }

  private finishPending(): void {
    if (this.discarding) {
      this.discarding = false;
      this.lineNo++;
      this.sink.error({
        code: "INVALID_REQUEST",
        message: `line ${this.lineNo}: line exceeds the ${this.maxLineBytes}-byte limit and was skipped`,
      });
      return;
    }
    const parts = this.pending;
    const only = parts.length === 1 ? parts[0] : undefined;
    const line = only ?? concat(parts, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    this.finishLine(line);
  }

  private finishLine(raw: Uint8Array): void {
    const text = this.utf8.decode(raw);
    this.finishText(text, isAscii(text, raw.length));
  }

  private finishText(line: string, ascii: boolean): void {
    this.lineNo++;
    const text = line.endsWith("\r") ? line.slice(0, -1) : line;
    // Characters never outnumber bytes; count bytes only when it could matter.
    if (text.length * 3 > this.maxLineBytes && Buffer.byteLength(text) > this.maxLineBytes) {
      this.sink.error({
        code: "INVALID_REQUEST",
        message: `line ${this.lineNo}: line exceeds the ${this.maxLineBytes}-byte limit and was skipped`,
      });
      return;
    }
    if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === "")) return; // blank lines are tolerated
    if (this.sink.text?.(text, ascii)) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      this.sink.error({
        code: "INVALID_REQUEST",
        message: `line ${this.lineNo}: bad JSON: ${describeError(err)}`,
      });
      return;
    }
    this.sink.value(value, text);
  }
}

/**
 * Whether `bytes` bytes of UTF-8 decoded to `text` were all ASCII: any other character takes
 * more bytes than UTF-16 units, and a byte that is not UTF-8 decodes to U+FFFD.
 */
function isAscii(text: string, bytes: number): boolean {
  return text.length === bytes && !text.includes("\uFFFD");
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
