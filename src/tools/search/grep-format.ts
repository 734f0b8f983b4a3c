/** Turns grep records into the text the model reads and the `path_list` render. */
import type { RenderDescriptor } from "../../types/render.ts";
import { displayPath } from "../resolve-path.ts";
import { capLine } from "../truncate.ts";
import type { GrepRecord } from "./grep-query.ts";

type PathListEntry = Extract<RenderDescriptor, { kind: "path_list" }>["paths"][number];

export interface FormattedGrep {
  /** `file:line: text` for matches, `file-line- text` for context lines, `--` between separate blocks. */
  lines: string[];
  paths: PathListEntry[];
}

/** With `separateBlocks` (context was asked for), a `--` line marks each gap between shown lines. */
export function formatGrepRecords(
  records: readonly GrepRecord[],
  cwd: string,
  options: { maxLineChars: number; separateBlocks: boolean },
): FormattedGrep {
  const lines: string[] = [];
  const paths: PathListEntry[] = [];
  const withContext = options.separateBlocks;
  let previous: GrepRecord | undefined;
  for (const record of records) {
    const shown = displayPath(cwd, record.path);
    const text = capLine(record.text, options.maxLineChars);
    if (withContext && previous && (previous.path !== record.path || previous.line + 1 !== record.line)) {
      lines.push("--");
    }
    lines.push(record.isMatch ? `${shown}:${record.line}: ${text}` : `${shown}-${record.line}- ${text}`);
    if (record.isMatch) paths.push({ path: shown, kind: "file", hint: `${record.line}: ${text}` });
    previous = record;
  }
  return { lines, paths };
}
