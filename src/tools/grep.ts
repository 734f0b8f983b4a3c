/**
 * `grep`: regex search over a tree, through ripgrep or the built-in walk
 * (docs/architecture.md §6.2).
 */
import { type Static, Type } from "@sinclair/typebox";
import type { Tool } from "../contracts/tool.ts";
import type { HiddenPaths } from "../sandbox/agent-sandbox.ts";
import { describeError } from "../support/describe-error.ts";
import { nodeFileOps } from "./file-ops.ts";
import { describeLocation, displayPath, resolveToolPath } from "./resolve-path.ts";
import { pickSearchBackend, type SearchBackendChoice } from "./search/backend.ts";
import { builtinGrep } from "./search/grep-builtin.ts";
import { formatGrepRecords } from "./search/grep-format.ts";
import type { GrepQuery } from "./search/grep-query.ts";
import { ripgrepGrep } from "./search/grep-ripgrep.ts";
import { HIDDEN_LEFT_OUT_NOTE } from "./search/hidden-exclusion.ts";
import { errorResult, textResult } from "./tool-result.ts";
import { DEFAULT_MAX_BYTES, formatBytes, takeHead } from "./truncate.ts";

const GrepParams = Type.Object({
  pattern: Type.String({
    description:
      "Regular expression to search for, one line at a time (set literal to search for plain text).",
  }),
  path: Type.Optional(
    Type.String({ description: "File or directory to search. Default: the working directory." }),
  ),
  glob: Type.Optional(
    Type.String({
      description:
        "Only search files matching this glob, e.g. `*.ts` or `*.{ts,tsx}` (matched against file names), or " +
        "`src/**/*.ts` (a glob with `/` is matched against the path relative to `path`).",
    }),
  ),
  ignore_case: Type.Optional(Type.Boolean({ description: "Match case-insensitively. Default false." })),
  literal: Type.Optional(
    Type.Boolean({
      description: "Treat pattern as plain text rather than a regular expression. Default false.",
    }),
  ),
  context: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 50,
      description: "Lines of context to show before and after each match.",
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, description: "Maximum number of matching lines. Default 100." }),
  ),
});
export type GrepArgs = Static<typeof GrepParams>;

export interface GrepToolOptions {
  /** `auto` (default) uses ripgrep when it is on PATH, else the built-in search. */
  backend?: SearchBackendChoice;
  defaultLimit?: number;
  maxBytes?: number;
  maxLineChars?: number;
  /** The sandbox's hidden paths, never searched (docs/sandbox.md). */
  hidden?: HiddenPaths;
}

export function createGrepTool(options: GrepToolOptions = {}): Tool<typeof GrepParams> {
  const defaultLimit = options.defaultLimit ?? 100;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxLineChars = options.maxLineChars ?? 500;

  return {
    name: "grep",
    description:
      "Search file contents with a regular expression. Prints `path:line: text` for each matching line " +
      `(at most ${defaultLimit} by default; lines longer than ${maxLineChars} characters are cut). Searches ` +
      "recursively, skipping files ignored by .gitignore/.ignore, binary files, `.git` and `node_modules`; " +
      "dotfiles are searched. Use glob to restrict file types and context for surrounding lines.",
    parameters: GrepParams,
    isReadOnly: true,
    paths: (args) => [args.path ?? "."],
    async execute(args, ctx) {
      const backend = pickSearchBackend(options.backend ?? "auto");
      if ("error" in backend) return errorResult(backend.error);
      const root = resolveToolPath(ctx, args.path ?? ".");
      const shownRoot = displayPath(ctx.cwd, root);
      let rootIsFile: boolean;
      try {
        const info = await nodeFileOps.stat(root);
        if (info === null)
          return errorResult(`Path not found: ${shownRoot}. Use \`ls\` or \`find\` to check the path.`);
        rootIsFile = info.kind === "file";
      } catch (error) {
        return errorResult(`Cannot search ${shownRoot}: ${describeError(error)}`);
      }
      const limit = args.limit ?? defaultLimit;
      const excluded = options.hidden?.hiddenBelow(root) ?? [];
      const query: GrepQuery = {
        pattern: args.pattern,
        root,
        rootIsFile,
        ignoreCase: args.ignore_case === true,
        literal: args.literal === true,
        context: args.context ?? 0,
        limit,
        excluded,
        ...(args.glob !== undefined ? { glob: args.glob } : {}),
      };
      const outcome =
        backend.kind === "rg"
          ? await ripgrepGrep(backend.rgPath, query, ctx.cwd, ctx.signal)
          : await builtinGrep(query, ctx.signal);
      if (!outcome.ok) return errorResult(outcome.message);
      if (ctx.signal.aborted) return errorResult("grep aborted.");
      const droppedNote = outcome.dropped
        ? `[${outcome.dropped} lines left out: their file changed (or is not UTF-8 text) while it was searched. Search again, or use \`read\`.]`
        : undefined;
      const malformedNote = outcome.malformed
        ? `[${outcome.malformed} lines of ripgrep's output could not be read and were left out. Search again, or use \`read\`.]`
        : undefined;
      const hiddenNote = excluded.length > 0 ? HIDDEN_LEFT_OUT_NOTE : undefined;
      if (outcome.records.length === 0) {
        const within = args.glob !== undefined ? ` (files matching ${args.glob})` : "";
        const none = `No matches for ${JSON.stringify(args.pattern)} in ${describeLocation(shownRoot)}${within}.`;
        const noneNotes = [droppedNote, malformedNote, hiddenNote].filter((note) => note !== undefined);
        return textResult([none, ...noneNotes].join("\n\n"), {
          render: { kind: "path_list", paths: [] },
        });
      }

      const formatted = formatGrepRecords(outcome.records, ctx.cwd, {
        maxLineChars,
        separateBlocks: query.context > 0,
      });
      const head = takeHead(formatted.lines, { maxLines: Number.POSITIVE_INFINITY, maxBytes });
      const notes: string[] = [];
      if (head.truncatedBy === "bytes") {
        notes.push(
          `[Output cut at ${formatBytes(maxBytes)}. Narrow the search with path or glob, or a more specific pattern.]`,
        );
      }
      if (droppedNote) notes.push(droppedNote);
      if (malformedNote) notes.push(malformedNote);
      if (hiddenNote) notes.push(hiddenNote);
      if (outcome.limitHit) {
        notes.push(
          `[Stopped after ${limit} matches; there are more. Narrow the search with path, glob or a more specific pattern, or raise limit.]`,
        );
      }
      const text = notes.length > 0 ? `${head.text}\n\n${notes.join("\n")}` : head.text;
      return textResult(text, { render: { kind: "path_list", paths: formatted.paths } });
    },
  };
}
