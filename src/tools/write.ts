/** `write`: create or overwrite a file, creating parent directories (ARCHITECTURE §4.1). */
import { type Static, Type } from "@sinclair/typebox";
import type { Tool } from "../contracts/tool.ts";
import { describeError } from "../support/describe-error.ts";
import { type FileOps, nodeFileOps } from "./file-ops.ts";
import { displayPath, resolveToolPath } from "./resolve-path.ts";
import { errorResult, textResult } from "./tool-result.ts";
import { takeHead } from "./truncate.ts";

const WriteParams = Type.Object({
  path: Type.String({
    description:
      "Path of the file to write, relative to the working directory or absolute (`~` is expanded).",
  }),
  content: Type.String({ description: "The complete new content of the file." }),
});
export type WriteArgs = Static<typeof WriteParams>;

export interface WriteToolOptions {
  ops?: FileOps;
}

/** How much of the content the start-time preview shows. */
const PREVIEW_LIMITS = { maxLines: 200, maxBytes: 16 * 1024 };

export function createWriteTool(options: WriteToolOptions = {}): Tool<typeof WriteParams> {
  const ops = options.ops ?? nodeFileOps;
  return {
    name: "write",
    description:
      "Write a file with the given content, replacing it entirely if it exists and creating missing parent " +
      "directories. Prefer `edit` for changing part of an existing file.",
    parameters: WriteParams,
    isReadOnly: false,
    paths: (args) => [args.path],
    render(args) {
      const lines = args.content.split("\n");
      const head = takeHead(lines, PREVIEW_LIMITS);
      const more = lines.length - head.keptLines;
      const text = more > 0 ? `${head.text}\n… (${more} more lines)` : head.text;
      return { kind: "code", path: args.path, text };
    },
    async execute(args, ctx) {
      const abs = resolveToolPath(ctx, args.path);
      const shown = displayPath(ctx.cwd, abs);
      try {
        const existing = await ops.stat(abs);
        if (existing?.kind === "dir") {
          return errorResult(`${shown} is a directory; give a file path inside it instead.`);
        }
        const data = Buffer.from(args.content, "utf8");
        await ops.writeFile(abs, data);
        const verb = existing === null ? "Created" : "Overwrote";
        return textResult(`${verb} ${shown} (${data.length} bytes).`);
      } catch (error) {
        return errorResult(`Cannot write ${shown}: ${describeError(error)}`);
      }
    },
  };
}
