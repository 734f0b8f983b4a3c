/**
 * `ls`: the entries of one directory (docs/architecture.md §6.2). It shows what is there, including
 * dotfiles and gitignored entries; `find` and `grep` are the ignore-aware tools.
 */
import { join } from "node:path";
import { type Static, Type } from "@sinclair/typebox";
import type { Tool } from "../contracts/tool.ts";
import type { HiddenPaths } from "../sandbox/agent-sandbox.ts";
import { describeError } from "../support/describe-error.ts";
import { type FileOps, nodeFileOps } from "./file-ops.ts";
import { displayPath, resolveToolPath } from "./resolve-path.ts";
import { HIDDEN_LEFT_OUT_NOTE, isExcluded } from "./search/hidden-exclusion.ts";
import { errorResult, textResult } from "./tool-result.ts";

const LsParams = Type.Object({
  path: Type.Optional(Type.String({ description: "Directory to list. Default: the working directory." })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, description: "Maximum number of entries to return. Default 500." }),
  ),
});
export type LsArgs = Static<typeof LsParams>;

export interface LsToolOptions {
  ops?: FileOps;
  defaultLimit?: number;
  /** The sandbox's hidden paths, never listed (docs/sandbox.md). */
  hidden?: HiddenPaths;
}

export function createLsTool(options: LsToolOptions = {}): Tool<typeof LsParams> {
  const ops = options.ops ?? nodeFileOps;
  const defaultLimit = options.defaultLimit ?? 500;
  return {
    name: "ls",
    description:
      "List one directory (not recursive): entry names sorted alphabetically, directories marked with a " +
      `trailing \`/\`, at most ${defaultLimit} entries by default. Shows everything present, including dotfiles ` +
      "and entries ignored by .gitignore. Use `find` to search recursively.",
    parameters: LsParams,
    isReadOnly: true,
    paths: (args) => [args.path ?? "."],
    async execute(args, ctx) {
      const abs = resolveToolPath(ctx, args.path ?? ".");
      const shown = displayPath(ctx.cwd, abs);
      let entries: Awaited<ReturnType<FileOps["readDir"]>>;
      let leftOut = 0;
      try {
        const info = await ops.stat(abs);
        if (info === null)
          return errorResult(
            `Directory not found: ${shown}. Check the path relative to the working directory.`,
          );
        if (info.kind !== "dir")
          return errorResult(`${shown} is not a directory. Use \`read\` to read a file.`);
        const listed = await ops.readDir(abs);
        const excluded = options.hidden?.hiddenBelow(abs) ?? [];
        entries = listed.filter((e) => !isExcluded(excluded, join(abs, e.name)));
        leftOut = listed.length - entries.length;
      } catch (error) {
        return errorResult(`Cannot list ${shown}: ${describeError(error)}`);
      }

      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const limit = args.limit ?? defaultLimit;
      const shownEntries = entries.slice(0, limit);
      const render = {
        kind: "path_list" as const,
        paths: shownEntries.map((e) => ({
          path: e.kind === "dir" ? `${e.name}/` : e.name,
          kind: e.kind === "dir" ? ("dir" as const) : ("file" as const),
        })),
      };
      const hiddenNote = leftOut > 0 ? `\n\n${HIDDEN_LEFT_OUT_NOTE}` : "";
      if (entries.length === 0) return textResult(`(empty directory)${hiddenNote}`, { render });
      const names = render.paths.map((p) => p.path).join("\n");
      const hint =
        entries.length > limit
          ? `\n\n[Showing ${limit} of ${entries.length} entries. Raise limit, or use \`find\` with a pattern to narrow down.]`
          : "";
      return textResult(`${names}${hint}${hiddenNote}`, { render });
    },
  };
}
