/** `find`: files by glob under a directory, honouring ignore files (docs/architecture.md §6.2). */
import { relative } from "node:path";
import { type Static, Type } from "@sinclair/typebox";
import type { Tool } from "../contracts/tool.ts";
import type { HiddenPaths } from "../sandbox/agent-sandbox.ts";
import { describeError } from "../support/describe-error.ts";
import { nodeFileOps } from "./file-ops.ts";
import { describeLocation, displayPath, resolveToolPath } from "./resolve-path.ts";
import { pickSearchBackend, type SearchBackendChoice } from "./search/backend.ts";
import { listFiles } from "./search/file-list.ts";
import { createGlobMatcher } from "./search/glob-match.ts";
import { HIDDEN_LEFT_OUT_NOTE } from "./search/hidden-exclusion.ts";
import { errorResult, textResult } from "./tool-result.ts";

const FindParams = Type.Object({
  pattern: Type.String({
    description:
      "Glob for the files to find. Without `/` it matches file names at any depth (`*.ts`, `*.{js,mjs}`, " +
      "`README*`); with `/` it matches the path relative to `path` (`src/**/*.test.ts`).",
  }),
  path: Type.Optional(Type.String({ description: "Directory to search. Default: the working directory." })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, description: "Maximum number of files to return. Default 1000." }),
  ),
});
export type FindArgs = Static<typeof FindParams>;

export interface FindToolOptions {
  /** `auto` (default) lists files with `rg --files` when ripgrep is on PATH, else walks the tree itself. */
  backend?: SearchBackendChoice;
  defaultLimit?: number;
  /** The sandbox's hidden paths, never listed (docs/sandbox.md). */
  hidden?: HiddenPaths;
}

export function createFindTool(options: FindToolOptions = {}): Tool<typeof FindParams> {
  const defaultLimit = options.defaultLimit ?? 1000;
  return {
    name: "find",
    description:
      "Find files by glob pattern. Returns matching file paths (relative to the working directory), sorted by " +
      `path, at most ${defaultLimit} by default. Skips files ignored by .gitignore/.ignore, \`.git\` and ` +
      "`node_modules`; dotfiles are included. Directories themselves are not listed (use `ls`).",
    parameters: FindParams,
    isReadOnly: true,
    paths: (args) => [args.path ?? "."],
    async execute(args, ctx) {
      const backend = pickSearchBackend(options.backend ?? "auto");
      if ("error" in backend) return errorResult(backend.error);
      const root = resolveToolPath(ctx, args.path ?? ".");
      const shownRoot = displayPath(ctx.cwd, root);
      try {
        const info = await nodeFileOps.stat(root);
        if (info === null)
          return errorResult(`Directory not found: ${shownRoot}. Use \`ls\` to check the path.`);
        if (info.kind !== "dir") {
          return errorResult(
            `${shownRoot} is not a directory. Give a directory as path (or use \`read\` on the file).`,
          );
        }
      } catch (error) {
        return errorResult(`Cannot search ${shownRoot}: ${describeError(error)}`);
      }

      const limit = args.limit ?? defaultLimit;
      const excluded = options.hidden?.hiddenBelow(root) ?? [];
      const matches = createGlobMatcher(args.pattern);
      const found: string[] = [];
      let more = false;
      const failure = await listFiles(
        backend,
        root,
        ctx.signal,
        (path) => {
          if (!matches(relative(root, path))) return true;
          if (found.length >= limit) {
            more = true;
            return false;
          }
          found.push(displayPath(ctx.cwd, path));
          return true;
        },
        excluded,
      );
      if (failure !== null) return errorResult(failure);
      if (ctx.signal.aborted) return errorResult("find aborted.");

      const render = {
        kind: "path_list" as const,
        paths: found.map((path) => ({ path, kind: "file" as const })),
      };
      const hiddenNote = excluded.length > 0 ? `\n\n${HIDDEN_LEFT_OUT_NOTE}` : "";
      if (found.length === 0) {
        const none = `No files matching ${args.pattern} in ${describeLocation(shownRoot)}.`;
        return textResult(`${none}${hiddenNote}`, { render });
      }
      const hint = more
        ? `\n\n[Showing the first ${limit} files; more match. Use a more specific pattern or path, or raise limit.]`
        : "";
      return textResult(`${found.join("\n")}${hint}${hiddenNote}`, { render });
    },
  };
}
