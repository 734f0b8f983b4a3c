/**
 * Output limits (docs/architecture.md §6.2): every tool caps what it returns by lines and bytes,
 * and the caller appends a hint telling the model how to get the rest.
 */

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;

export interface OutputLimits {
  maxLines: number;
  maxBytes: number;
}

export interface HeadSlice {
  /** The kept lines, joined with `\n`. */
  text: string;
  /** How many lines were kept (from the start). */
  keptLines: number;
  /** Which limit cut the output, if any. */
  truncatedBy: "lines" | "bytes" | null;
}

/** Keeps whole lines from the start until either limit is reached. */
export function takeHead(lines: readonly string[], limits: OutputLimits): HeadSlice {
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    if (kept.length >= limits.maxLines)
      return { text: kept.join("\n"), keptLines: kept.length, truncatedBy: "lines" };
    const size = Buffer.byteLength(line, "utf8") + (kept.length > 0 ? 1 : 0);
    if (bytes + size > limits.maxBytes) {
      return { text: kept.join("\n"), keptLines: kept.length, truncatedBy: "bytes" };
    }
    kept.push(line);
    bytes += size;
  }
  return { text: kept.join("\n"), keptLines: kept.length, truncatedBy: null };
}

export interface TailSlice {
  text: string;
  keptLines: number;
  truncatedBy: "lines" | "bytes" | null;
}

/**
 * Keeps whole lines from the end until either limit is reached. A single last line larger than
 * the byte limit is cut to its final bytes so the output is never empty when there was output.
 */
export function takeTail(text: string, limits: OutputLimits): TailSlice {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  const lines = body.split("\n");
  const kept: string[] = [];
  let bytes = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] ?? "";
    if (kept.length >= limits.maxLines)
      return { text: kept.reverse().join("\n"), keptLines: kept.length, truncatedBy: "lines" };
    const size = Buffer.byteLength(line, "utf8") + (kept.length > 0 ? 1 : 0);
    if (bytes + size > limits.maxBytes) {
      if (kept.length === 0) {
        const tail = Buffer.from(line, "utf8").subarray(-limits.maxBytes).toString("utf8");
        return { text: tail, keptLines: 1, truncatedBy: "bytes" };
      }
      return { text: kept.reverse().join("\n"), keptLines: kept.length, truncatedBy: "bytes" };
    }
    kept.push(line);
    bytes += size;
  }
  return { text: kept.reverse().join("\n"), keptLines: kept.length, truncatedBy: null };
}

/** Caps one line at `maxChars`, saying how much was cut so the model knows the line is partial. */
export function capLine(line: string, maxChars: number): string {
  if (line.length <= maxChars) return line;
  return `${line.slice(0, maxChars)}… [line truncated, ${line.length - maxChars} more chars]`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, "")} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MB`;
}
