/**
 * Reads an LF-delimited file once, in chunks, through one reused buffer: never the whole
 * file as one buffer plus one string. Each chunk is decoded once (LF never occurs inside a
 * multi-byte UTF-8 sequence) and split into lines.
 */
import { readSync } from "node:fs";

const LF = 0x0a;
export const CHUNK_BYTES = 1024 * 1024;

export interface LinesRead {
  /** Complete (LF-terminated) lines delivered. */
  lines: number;
  /** Bytes after the last LF (a final line without newline); 0 when stopped early. */
  trailingBytes: number;
  stopped: boolean;
}

/** Calls `onLine` per complete line (without its LF) until it returns false or the file ends. */
export function forEachLine(
  fd: number,
  onLine: (line: string) => boolean,
  chunkBytes = CHUNK_BYTES,
): LinesRead {
  let buf = Buffer.allocUnsafe(chunkBytes);
  let filled = 0;
  let filePos = 0;
  let lines = 0;
  for (;;) {
    if (filled === buf.length) {
      // A line longer than the buffer: grow it.
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, filled);
      buf = bigger;
    }
    const n = readSync(fd, buf, filled, buf.length - filled, filePos);
    filePos += n;
    filled += n;
    const lastLf = filled > 0 ? buf.lastIndexOf(LF, filled - 1) : -1;
    if (lastLf >= 0) {
      const text = buf.toString("utf8", 0, lastLf);
      for (let pos = 0; ; ) {
        const nl = text.indexOf("\n", pos);
        lines++;
        if (!onLine(nl < 0 ? text.slice(pos) : text.slice(pos, nl)))
          return { lines, trailingBytes: 0, stopped: true };
        if (nl < 0) break;
        pos = nl + 1;
      }
      buf.copyWithin(0, lastLf + 1, filled);
      filled -= lastLf + 1;
    }
    if (n === 0) return { lines, trailingBytes: filled, stopped: false };
  }
}

/** Counts LF bytes without decoding. */
export function countLines(fd: number, chunkBytes = CHUNK_BYTES): number {
  const buf = Buffer.allocUnsafe(chunkBytes);
  let count = 0;
  let filePos = 0;
  for (;;) {
    const n = readSync(fd, buf, 0, buf.length, filePos);
    if (n === 0) return count;
    filePos += n;
    for (let i = buf.indexOf(LF); i >= 0 && i < n; i = buf.indexOf(LF, i + 1)) count++;
  }
}

/** The last complete lines (newest first) found within the final `windowBytes` of the file. */
export function lastLines(fd: number, size: number, windowBytes = 256 * 1024): string[] {
  const start = Math.max(0, size - windowBytes);
  const buf = Buffer.allocUnsafe(size - start);
  const n = readSync(fd, buf, 0, buf.length, start);
  const text = buf.toString("utf8", 0, n);
  const end = text.lastIndexOf("\n");
  if (end < 0) return [];
  const lines = text.slice(0, end).split("\n");
  // The first piece may be cut by the window (unless the window reaches the file start).
  if (start > 0) lines.shift();
  return lines.reverse();
}
