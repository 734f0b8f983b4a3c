/**
 * The text side of `edit`: exact-match replacement on LF-normalized text, with the file's BOM and
 * CRLF line endings put back afterwards, and the change as unified-diff hunks.
 */
import type { Hunk } from "../types/render.ts";

export interface FileTextShape {
  bom: boolean;
  crlf: boolean;
  /** The text without BOM and with `\r\n` turned into `\n`. */
  body: string;
}

const BOM = "\uFEFF";

export function parseFileText(raw: string): FileTextShape {
  const bom = raw.startsWith(BOM);
  const withoutBom = bom ? raw.slice(1) : raw;
  const crlf = withoutBom.includes("\r\n");
  return { bom, crlf, body: crlf ? withoutBom.replace(/\r\n/g, "\n") : withoutBom };
}

/** Inverse of parseFileText. A file with any CRLF is written back with CRLF throughout. */
export function serializeFileText(shape: FileTextShape): string {
  const body = shape.crlf ? shape.body.replace(/\n/g, "\r\n") : shape.body;
  return shape.bom ? `${BOM}${body}` : body;
}

export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n/g, "\n");
}

export function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length))
    count++;
  return count;
}

/** Literal replacement (no `$&`-style patterns, unlike String.prototype.replace with a string). */
export function replaceLiteral(haystack: string, needle: string, replacement: string, all: boolean): string {
  if (all) return haystack.split(needle).join(replacement);
  const at = haystack.indexOf(needle);
  return at === -1 ? haystack : haystack.slice(0, at) + replacement + haystack.slice(at + needle.length);
}

/** 1-based line of the first place `needle` matches when runs of whitespace are ignored, or null. */
export function findIgnoringWhitespace(haystack: string, needle: string): number | null {
  const squash = (s: string) => s.replace(/\s+/g, " ").trim();
  const target = squash(needle);
  if (target === "") return null;
  const lines = haystack.split("\n");
  const needleLines = needle.trim().split("\n").length;
  for (let i = 0; i < lines.length; i++) {
    if (squash(lines.slice(i, i + needleLines).join("\n")).includes(target)) return i + 1;
  }
  return null;
}

/** `diff` loads on first use: it is only needed once an edit lands, not at agent start-up. */
export async function diffHunks(path: string, before: string, after: string): Promise<Hunk[]> {
  const { structuredPatch } = await import("diff");
  const patch = structuredPatch(path, path, before, after, "", "", { context: 3 });
  return patch.hunks.map((h) => ({
    old_start: h.oldStart,
    old_lines: h.oldLines,
    new_start: h.newStart,
    new_lines: h.newLines,
    lines: h.lines,
  }));
}
