/**
 * Rolling tail of a command's output (docs/architecture.md §6.2): memory stays bounded however much
 * a command prints. Nothing is written to disk: a command that prints gigabytes must not fill the
 * temp dir either, and the model is told how to keep the full output when it needs it.
 */
import { formatBytes, type OutputLimits, takeTail } from "./truncate.ts";

export interface CollectedOutput {
  /** The tail that fits the limits, with a closing note when something was cut. */
  text: string;
  truncated: boolean;
}

export class OutputTail {
  private chunks: string[] = [];
  private chunkBytes: number[] = [];
  private endsWithNewline = true;
  private bufferedBytes = 0;
  private totalBytes = 0;
  private totalNewlines = 0;

  constructor(private readonly limits: OutputLimits) {}

  push(text: string): void {
    if (text === "") return;
    const bytes = Buffer.byteLength(text, "utf8");
    this.chunks.push(text);
    this.chunkBytes.push(bytes);
    this.bufferedBytes += bytes;
    this.endsWithNewline = text.endsWith("\n");
    this.totalBytes += bytes;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.totalNewlines++;

    // Keep twice the byte limit so the final tail is exact; older chunks are no longer needed.
    while (
      this.chunks.length > 1 &&
      this.bufferedBytes - (this.chunkBytes[0] ?? 0) > 2 * this.limits.maxBytes
    ) {
      this.chunks.shift();
      this.bufferedBytes -= this.chunkBytes.shift() ?? 0;
    }
  }

  finish(): CollectedOutput {
    const all = this.chunks.join("");
    const tail = takeTail(all, this.limits);
    const truncated = this.exceedsLimits() || tail.truncatedBy !== null;
    if (!truncated) return { text: all, truncated: false };

    const totalLines = this.lineCount();
    const keptBytes = Buffer.byteLength(tail.text, "utf8");
    const note =
      `[Output truncated: showing the last ${tail.keptLines} of ${totalLines} lines ` +
      `(${formatBytes(keptBytes)} of ${formatBytes(this.totalBytes)}); the first ` +
      `${formatBytes(this.totalBytes - keptBytes)} were dropped and not saved. To see all of it, run the ` +
      "command again with its output redirected to a file (`cmd > out.log 2>&1`) and read or grep that file.]";
    return { text: `${tail.text}\n\n${note}`, truncated: true };
  }

  /** Lines so far, counting an unterminated last line. */
  private lineCount(): number {
    return this.totalNewlines + (this.endsWithNewline ? 0 : 1);
  }

  private exceedsLimits(): boolean {
    return this.totalBytes > this.limits.maxBytes || this.lineCount() > this.limits.maxLines;
  }
}
