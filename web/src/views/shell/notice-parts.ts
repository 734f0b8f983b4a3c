/** A notice's one-line summary and, when there is more, the whole text (bounded) for Details. */

/** Longest summary line; the rest goes under Details. */
const SUMMARY_CHARS = 160;
/** Longest text kept under Details: a notice is read, not stored. */
const DETAILS_CHARS = 4_000;

export function noticeParts(text: string): { summary: string; details?: string } {
  const line = text.split("\n").find((l) => l.trim() !== "") ?? text;
  const summary = line.length <= SUMMARY_CHARS ? line.trim() : `${line.slice(0, SUMMARY_CHARS - 1).trim()}…`;
  if (summary === text.trim()) return { summary };
  const details = text.length <= DETAILS_CHARS ? text : `${text.slice(0, DETAILS_CHARS - 1)}…`;
  return { summary, details };
}
