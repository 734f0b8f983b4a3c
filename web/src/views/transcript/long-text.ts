/**
 * Bounds on what the transcript lays out at once. A 2 MB reply on one line, laid out whole,
 * stalls the page for seconds (the browser shapes and wraps all of it in one task), so a long
 * text is first shown cut: each line to LINE_CHARS, the whole to HEAD_CHARS (and, for tool
 * output, a number of lines). The rest is shown on request in chunks (`textChunks`) the
 * browser lays out only as they scroll into view.
 */

/** A line longer than this is cut in the first view. */
export const LINE_CHARS = 2_000;
/** The first view holds at most this many characters. */
export const HEAD_CHARS = 40_000;
/** The size of one chunk of the full view. */
export const CHUNK_CHARS = 2_000;

export interface ClippedText {
  /** What the first view shows: whole lines, long ones ending in "…". */
  text: string;
  /** Whether anything was left out. */
  cut: boolean;
  /** Lines not shown at all. */
  hiddenLines: number;
  /** Characters not shown (of cut lines and of lines not shown). */
  hiddenChars: number;
}

/** `text` cut to at most `maxLines` lines, each to LINE_CHARS, all to HEAD_CHARS. */
export function clipText(text: string, maxLines = Number.POSITIVE_INFINITY): ClippedText {
  if (text.length <= LINE_CHARS && maxLines === Number.POSITIVE_INFINITY) return whole(text);
  const shown: string[] = [];
  let size = 0;
  let start = 0;
  let lines = 0;
  let hiddenChars = 0;
  while (start < text.length) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    if (lines >= maxLines || size >= HEAD_CHARS) break;
    const room = Math.min(LINE_CHARS, HEAD_CHARS - size);
    const length = end - start;
    if (length > room) {
      shown.push(`${text.slice(start, start + room)}…`);
      hiddenChars += length - room;
      size += room;
    } else {
      shown.push(text.slice(start, end));
      size += length;
    }
    lines++;
    start = newline < 0 ? text.length : newline + 1;
  }
  if (start >= text.length && hiddenChars === 0) return whole(text);
  let hiddenLines = 0;
  if (start < text.length) {
    hiddenChars += text.length - start;
    hiddenLines = 1;
    for (
      let at = text.indexOf("\n", start);
      at >= 0 && at < text.length - 1;
      at = text.indexOf("\n", at + 1)
    ) {
      hiddenLines++;
    }
  }
  return { text: shown.join("\n"), cut: true, hiddenLines, hiddenChars };
}

function whole(text: string): ClippedText {
  return { text, cut: false, hiddenLines: 0, hiddenChars: 0 };
}

/**
 * `text` in pieces of about CHUNK_CHARS, each ending at a line's end where one is near, so a
 * chunk drawn as a block breaks a line only where the line is longer than a chunk.
 */
export function textChunks(text: string): string[] {
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + CHUNK_CHARS);
    if (end < text.length) {
      // Searched within the chunk only: on one long line a search from `end` back would scan
      // to the text's start for every chunk.
      const newline = text.slice(start, end).lastIndexOf("\n");
      if (newline >= 0) end = start + newline + 1;
    }
    chunks.push(text.slice(start, end));
    start = end;
  }
  return chunks;
}

/** "1.9 MB", "12,345 characters": how much is left out. */
export function sizeLabel(chars: number): string {
  if (chars < 100_000) return `${chars.toLocaleString("en")} characters`;
  return `${(chars / 1_000_000).toFixed(1)} MB`;
}

/** "Show 120 more lines" while what is left out is a few lines, else "Show all (1.9 MB more)". */
export function moreLabel(lines: number, chars: number): string {
  if (lines > 0 && chars < 100_000) return `Show ${lines} more lines`;
  return `Show all (${sizeLabel(chars)} more)`;
}
