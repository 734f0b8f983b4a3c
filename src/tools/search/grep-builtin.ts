/** Built-in `grep` backend: the ignore-aware walk plus JavaScript RegExp, line by line. */
import { relative } from "node:path";
import { escapeRegExp } from "../../support/escape-regexp.ts";
import { nodeFileOps } from "../file-ops.ts";
import { createGlobMatcher } from "./glob-match.ts";
import { GrepCollector, type GrepOutcome, type GrepQuery } from "./grep-query.ts";
import { walkFiles } from "./walk.ts";

export async function builtinGrep(query: GrepQuery, signal: AbortSignal): Promise<GrepOutcome> {
  let regex: RegExp;
  try {
    const source = query.literal ? escapeRegExp(query.pattern) : query.pattern;
    regex = new RegExp(source, query.ignoreCase ? "i" : "");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      message: `Invalid regular expression: ${reason}. Fix the pattern or set literal to true.`,
    };
  }

  const collector = new GrepCollector(query.limit);
  const matchesGlob = query.glob !== undefined ? createGlobMatcher(query.glob) : () => true;
  const files = query.rootIsFile ? [query.root] : walkFiles(query.root, signal, query.excluded);
  for await (const file of files) {
    if (signal.aborted) break;
    if (!query.rootIsFile && !matchesGlob(relative(query.root, file))) continue;
    if (!(await searchFile(file, regex, query.context, collector))) break;
  }
  return collector.outcome();
}

/** Returns false when the collector is full. */
async function searchFile(
  path: string,
  regex: RegExp,
  context: number,
  collector: GrepCollector,
): Promise<boolean> {
  let bytes: Uint8Array;
  try {
    // Verified: a file swapped for a link (or moved under a swapped directory) is not read.
    bytes = await nodeFileOps.readFile(path);
  } catch {
    return true; // unreadable or changed: skipped, as ripgrep skips unreadable files
  }
  if (bytes.includes(0)) return true; // binary
  const lines = new TextDecoder().decode(bytes).split("\n");
  if (lines[lines.length - 1] === "") lines.pop();

  const matchAt: boolean[] = lines.map((line) => regex.test(line));
  // Lines shown: every match and `context` lines either side of it.
  const shown = new Array<boolean>(lines.length).fill(false);
  matchAt.forEach((isMatch, i) => {
    if (!isMatch) return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) shown[j] = true;
  });
  for (let i = 0; i < lines.length; i++) {
    if (!shown[i]) continue;
    const text = (lines[i] ?? "").replace(/\r$/, "");
    if (!collector.add({ path, line: i + 1, text, isMatch: matchAt[i] === true })) return false;
  }
  return true;
}
