/**
 * Text a permission request shows the user (docs/protocol.md §5.3). A hostile command or file name
 * must not be able to hide anything from the person deciding: terminal escapes, C0/C1
 * controls and bidi overrides are shown as visible `\uXXXX` escapes, and a one-line
 * summary that has to be cut keeps both ends, so a tail after padding stays visible.
 */

/**
 * Characters that move the cursor, recolour, reorder or hide text: C0 (but tab and newline,
 * handled by the callers), DEL, C1, the bidi embeddings/overrides/isolates and marks, the
 * Unicode line and paragraph separators, zero-width space and the byte-order mark.
 */
const INVISIBLE_OR_CONTROL =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/gu;

function escapeChar(c: string): string {
  return `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`;
}

/** The complete text with every control and bidi character made visible; tabs and newlines stay. */
export function escapeForDisplay(text: string): string {
  return text.replace(INVISIBLE_OR_CONTROL, escapeChar);
}

/** Most of a one-line summary; the full text is always in the details. */
export const SUMMARY_MAX_CHARS = 200;
const SUMMARY_TAIL_CHARS = 80;

const SPACE = "[\\t \\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000]";
const LINE_BREAKS = new RegExp(`${SPACE}*(?:\\r?\\n${SPACE}*)+`, "g");
const SPACE_RUNS = new RegExp(`${SPACE}+`, "g");

/**
 * One line for a prompt: line breaks become `⏎`, runs of other whitespace one space,
 * controls are escaped; when still too long, the middle is cut and the cut is marked with
 * how much was left out, keeping the head and the tail (where an appended `; rm -rf ~` is).
 */
export function summaryLine(text: string, maxChars = SUMMARY_MAX_CHARS): string {
  const flat = text.replace(LINE_BREAKS, " ⏎ ").replace(SPACE_RUNS, " ").trim();
  // Cut between whole characters and whole escapes, never inside one.
  const units = Array.from(flat, (c) => escapeForDisplay(c));
  const length = units.reduce((sum, u) => sum + u.length, 0);
  if (length <= maxChars) return units.join("");
  const tailBudget = Math.min(SUMMARY_TAIL_CHARS, Math.floor(maxChars / 2));
  const head = takeWithin(units, maxChars - tailBudget);
  const tail = takeWithin([...units].reverse(), tailBudget).reverse();
  const cut = units.length - head.length - tail.length;
  return `${head.join("").trimEnd()} …[${cut} characters cut]… ${tail.join("").trimStart()}`;
}

function takeWithin(units: string[], budget: number): string[] {
  const taken: string[] = [];
  let used = 0;
  for (const unit of units) {
    if (used + unit.length > budget) break;
    taken.push(unit);
    used += unit.length;
  }
  return taken;
}
