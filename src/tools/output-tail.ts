/**
 * Rolling tail of a command's output (ARCHITECTURE §4.1): memory stays bounded however much a
 * command prints, and once the output exceeds the limits everything is also written to a temp file
 * so the model can page through the full output with `read`.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatBytes, type OutputLimits, takeTail } from "./truncate.ts";

export interface CollectedOutput {
  /** The tail that fits the limits, with a closing note when something was cut. */
  text: string;
  truncated: boolean;
  /** Where the complete output was saved when it was truncated. */
  fullOutputPath?: string;
}

export class OutputTail {
  private chunks: string[] = [];
  private chunkBytes: number[] = [];
  private endsWithNewline = true;
  private bufferedBytes = 0;
  private totalBytes = 0;
  private totalNewlines = 0;
  private spill: WriteStream | null = null;
  private spillPath: string | null = null;
  private spillError: string | null = null;

  constructor(
    private readonly limits: OutputLimits,
    private readonly spillDir: string = tmpdir(),
  ) {}

  push(text: string): void {
    if (text === "") return;
    const bytes = Buffer.byteLength(text, "utf8");
    this.chunks.push(text);
    this.chunkBytes.push(bytes);
    this.bufferedBytes += bytes;
    this.endsWithNewline = text.endsWith("\n");
    this.totalBytes += bytes;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.totalNewlines++;

    if (this.spill === null && this.spillError === null && this.exceedsLimits()) this.openSpill();
    else this.spill?.write(text);

    // Keep twice the byte limit so the final tail is exact; older chunks are no longer needed.
    while (
      this.chunks.length > 1 &&
      this.bufferedBytes - (this.chunkBytes[0] ?? 0) > 2 * this.limits.maxBytes
    ) {
      this.chunks.shift();
      this.bufferedBytes -= this.chunkBytes.shift() ?? 0;
    }
  }

  async finish(): Promise<CollectedOutput> {
    if (this.spill !== null) {
      const stream = this.spill;
      await new Promise<void>((resolve) => stream.end(resolve));
    }
    const all = this.chunks.join("");
    const tail = takeTail(all, this.limits);
    const truncated = this.exceedsLimits() || tail.truncatedBy !== null;
    if (!truncated) return { text: all, truncated: false };

    const totalLines = this.lineCount();
    const where =
      this.spillPath !== null
        ? `Full output: ${this.spillPath}`
        : `The full output could not be saved (${this.spillError ?? "unknown error"}).`;
    const note = `[Output truncated: showing the last ${tail.keptLines} of ${totalLines} lines (${formatBytes(this.totalBytes)} total). ${where}]`;
    return {
      text: `${tail.text}\n\n${note}`,
      truncated: true,
      ...(this.spillPath !== null ? { fullOutputPath: this.spillPath } : {}),
    };
  }

  /** Lines so far, counting an unterminated last line. */
  private lineCount(): number {
    return this.totalNewlines + (this.endsWithNewline ? 0 : 1);
  }

  private exceedsLimits(): boolean {
    return this.totalBytes > this.limits.maxBytes || this.lineCount() > this.limits.maxLines;
  }

  private openSpill(): void {
    const path = join(this.spillDir, `shard-bash-${crypto.randomUUID()}.log`);
    try {
      const stream = createWriteStream(path, { mode: 0o600 });
      stream.on("error", (error) => {
        this.spillError = error.message;
        this.spillPath = null;
      });
      // Nothing has been trimmed yet: trimming starts past 2× maxBytes, which implies a spill.
      for (const chunk of this.chunks) stream.write(chunk);
      this.spill = stream;
      this.spillPath = path;
    } catch (error) {
      this.spillError = error instanceof Error ? error.message : String(error);
    }
  }
}
