/** ripgrep `grep` backend: `rg --json`, parsed into the same records as the built-in backend. */
import { relative } from "node:path";
import { type Static, Type } from "@sinclair/typebox";
import { isRecord } from "../../support/is-record.ts";
import { schemaCheck } from "../../wire/schema-check.ts";
import { createGlobMatcher } from "./glob-match.ts";
import { GrepCollector, type GrepOutcome, type GrepQuery } from "./grep-query.ts";
import { keepVerifiedRecords } from "./grep-verify.ts";
import { isExcluded, ripgrepExcludeFlags } from "./hidden-exclusion.ts";
import { RG_COMMON_FLAGS, RG_EXCLUDE_FLAGS, runRipgrep } from "./ripgrep.ts";

/** rg's "arbitrary data": UTF-8 text, or base64 bytes when it is not valid UTF-8. */
const RgDataSchema = Type.Union([
  Type.Object({ text: Type.String() }),
  Type.Object({ bytes: Type.String() }),
]);
type RgData = Static<typeof RgDataSchema>;

/** The fields read from rg's `match` and `context` events (`rg --json`; other fields are ignored). */
const RgLineEventSchema = Type.Object({
  type: Type.Union([Type.Literal("match"), Type.Literal("context")]),
  data: Type.Object({
    path: RgDataSchema,
    lines: RgDataSchema,
    line_number: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  }),
});
type RgLineEvent = Static<typeof RgLineEventSchema>;

function dataText(data: RgData): string {
  return "text" in data ? data.text : Buffer.from(data.bytes, "base64").toString("utf8");
}

/**
 * A line of rg's output as a match or context event; null for the other events (begin, end,
 * summary), "malformed" for a line that is not JSON or an event without the fields read here.
 */
function parseRgLine(line: string): RgLineEvent | null | "malformed" {
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    return "malformed";
  }
  if (!isRecord(event)) return "malformed";
  if (event.type !== "match" && event.type !== "context") return null;
  return schemaCheck(RgLineEventSchema).check(event) ? event : "malformed";
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
  let malformed = 0;
  let run: Awaited<ReturnType<typeof runRipgrep>>;
  try {
    run = await runRipgrep(rgPath, args, rgCwd, signal, (line) => {
      if (line === "") return true;
      const event = parseRgLine(line);
      if (event === "malformed") malformed++;
      if (event === null || event === "malformed") return true;
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
  return {
    ok: true,
    records: verified.records,
    limitHit: collector.limitHit,
    dropped: verified.dropped,
    ...(malformed > 0 ? { malformed } : {}),
  };
}
