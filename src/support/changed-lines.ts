/**
 * How many lines a diff adds and removes. Shared by the `edit` tool's summary and the web's
 * diff header, so both state the same counts; it imports only the `Hunk` type, so the browser
 * bundle can take it.
 */
import type { Hunk } from "../types/render.ts";

export function countChangedLines(hunks: readonly Hunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) removed++;
    }
  }
  return { added, removed };
}
