/**
 * Splits a byte stream into LF-terminated lines without decoding them (pure). A peer's stream
 * can be gigabytes (pi repeats the whole partial message in every delta event), so the
 * benchmark's client classifies most lines by their first bytes and decodes only the rest.
 */

export class LineScanner {
  private pending: Buffer[] = [];

  constructor(private readonly onLine: (line: Buffer) => void) {}

  push(chunk: Uint8Array): void {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (;;) {
      const lf = buf.indexOf(10, start);
      if (lf < 0) break;
      let line = buf.subarray(start, lf);
      if (this.pending.length > 0) {
        this.pending.push(line);
        line = Buffer.concat(this.pending);
        this.pending = [];
      }
      this.onLine(line);
      start = lf + 1;
    }
    // Copy the tail: the caller may reuse the chunk's memory.
    if (start < buf.length) this.pending.push(Buffer.from(buf.subarray(start)));
  }
}
