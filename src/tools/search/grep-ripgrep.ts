/** ripgrep `grep` backend: `rg --json`, parsed into the same records as the built-in backend. */
import { relative } from "node:path";
import { createGlobMatcher } from "./glob-match.ts";
import { GrepCollector, type GrepOutcome, type GrepQuery } from "./grep-query.ts";
import { keepVerifiedRecords } from "./grep-verify.ts";
import { isExcluded, ripgrepExcludeFlags } from "./hidden-exclusion.ts";
import { RG_COMMON_FLAGS, RG_EXCLUDE_FLAGS, runRipgrep } from "./ripgrep.ts";

interface RgData {
  text?: string;
  bytes?: string;
}

interface RgEvent {
  type: string;
  data?: { path?: RgData; lines?: RgData; line_number?: number | null };
}

function dataText(data: RgData | undefined): string {
  if (data?.text !== undefined) return data.text;
  if (data?.bytes !== undefined) return Buffer.from(data.bytes, "base64").toString("utf8");
  return "";
}

export async function ripgrepGrep(
  rgPath: string,
  query: GrepQuery,
  cwd: string,
  signal: AbortSignal,
): Promise<GrepOutcome> {
  const args = ["--json", ...RG_COMMON_FLAGS];
  if (query.ignoreCase) args.push("--ignore-case");
  if (query.literal) args.push("--fixed-strings");
  if (query.context > 0) args.push("--context", String(query.context));
  // rg's --glob would override ignore files; a file type filters without doing that, but only
  // by file name. The glob matcher below is the authority either way.
  if (query.glob !== undefined && !query.glob.includes("/")) {
    args.push("--type-add", `shardglob:${query.glob}`, "--type", "shardglob");
  }
  const matchesGlob =
    query.glob !== undefined && !query.rootIsFile ? createGlobMatcher(query.glob) : () => true;
  args.push(...RG_EXCLUDE_FLAGS, ...ripgrepExcludeFlags(query.root, query.excluded));
  args.push("--regexp", query.pattern, "--", query.root);
  // The sandbox's exclusion globs are anchored at rg's cwd: the root when it is a directory
  // (a single file has nothing below it to exclude).
  const rgCwd = query.rootIsFile ? cwd : query.root;

  const collector = new GrepCollector(query.limit);
  let run: Awaited<ReturnType<typeof runRipgrep>>;
  try {
    run = await runRipgrep(rgPath, args, rgCwd, signal, (line) => {
      if (line === "") return true;
      let event: RgEvent;
      try {
        event = JSON.parse(line) as RgEvent;
      } catch {
        return true;
      }
      if ((event.type !== "match" && event.type !== "context") || !event.data) return true;
      const path = dataText(event.data.path);
      if (isExcluded(query.excluded, path) || !matchesGlob(relative(query.root, path))) return true;
      return collector.add({
        path,
        line: event.data.line_number ?? 0,
        text: dataText(event.data.lines).replace(/\r?\n$/, ""),
        isMatch: event.type === "match",
      });
    });
  } catch (error) {
    return {
      ok: false,
      message: `Could not run ripgrep: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  // "No files were searched" just means the file filter matched nothing.
  const nothingSearched = run.stderr.includes("No files were searched");
  if (run.exitCode === 2 && !run.stopped && collector.records.length === 0 && !nothingSearched) {
    const detail = run.stderr.trim() || "ripgrep failed";
    const hint = /regex/i.test(detail) ? " Fix the pattern or set literal to true." : "";
    return { ok: false, message: `grep failed: ${detail}${hint}` };
  }
  const verified = await keepVerifiedRecords(collector.records);
  return { ok: true, records: verified.records, limitHit: collector.limitHit, dropped: verified.dropped };
}
