/**
 * The diff a file tool would make, for its permission request. Bounded: a file too large to
 * diff quickly, or a change too long to read in a dialog, is summarised in a sentence instead,
 * so a preview never hides part of a change behind a diff that looks complete.
 */
import { countChangedLines } from "../support/changed-lines.ts";
import type { RenderDescriptor } from "../types/render.ts";
import { diffHunks } from "./edit-text.ts";

/** Above this, either side is not diffed (the diff is quadratic in the worst case). */
const MAX_DIFFED_CHARS = 512 * 1024;
/** The most diff lines (context included) a preview shows. */
const MAX_PREVIEW_LINES = 1_000;

export async function previewChange(shown: string, before: string, after: string): Promise<RenderDescriptor> {
  if (before.length > MAX_DIFFED_CHARS || after.length > MAX_DIFFED_CHARS) {
    return {
      kind: "text",
      text: `${shown}: too large to preview (${before.length} → ${after.length} characters); read the file to see it.`,
    };
  }
  const hunks = await diffHunks(shown, before, after);
  const lines = hunks.reduce((n, h) => n + h.lines.length, 0);
  if (lines > MAX_PREVIEW_LINES) {
    const { added, removed } = countChangedLines(hunks);
    return {
      kind: "text",
      text: `${shown}: a change too long to preview here (+${added} −${removed} lines in ${hunks.length} places).`,
    };
  }
  return { kind: "diff", path: shown, hunks };
}
