/**
 * Splits a tool's output from the note our tools append when they cut it (bash keeps the last
 * lines, read a page, ls/find/grep the first entries): the note is shown as a banner so a user
 * sees at once that what is below is not all of it. The note is text like the rest.
 */
const CUT = /^\[(?:Output truncated|Output cut|Showing |Stopped after |live output stopped)/;
const NOTE_LINE = /^\[[^\n]*\]$/;

export interface SplitOutput {
  body: string;
  truncation?: string;
}

/** The trailing block of `[…]` note lines after a blank line, if one of them says output was cut. */
export function splitTruncation(text: string): SplitOutput {
  const trimmed = text.trimEnd();
  const at = trimmed.lastIndexOf("\n\n");
  if (at < 0) return { body: text };
  const notes = trimmed.slice(at + 2).split("\n");
  if (!notes.every((line) => NOTE_LINE.test(line)) || !notes.some((line) => CUT.test(line))) {
    return { body: text };
  }
  return { body: trimmed.slice(0, at), truncation: notes.map((line) => line.slice(1, -1)).join("\n") };
}
