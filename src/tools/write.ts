/** `write`: create or overwrite a file, creating parent directories (docs/architecture.md §6.2). */
import { type Static, Type } from "@sinclair/typebox";
import type { Tool } from "../contracts/tool.ts";
import { describeError } from "../support/describe-error.ts";
import type { RenderDescriptor } from "../types/render.ts";
import { previewChange } from "./change-preview.ts";
import { looksBinary } from "./file-kind.ts";
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
/** A file larger than this is not read for the permission preview. */
const MAX_COMPARED_BYTES = 1024 * 1024;

/** The first lines of the content, with how many more there are. */
function contentHead(path: string, content: string): RenderDescriptor {
  const lines = content.split("\n");
  const head = takeHead(lines, PREVIEW_LIMITS);
  const more = lines.length - head.keptLines;
  return { kind: "code", path, text: more > 0 ? `${head.text}\n… (${more} more lines)` : head.text };
}

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
    render: (args) => contentHead(args.path, args.content),
    async preview(args, ctx) {
      // Over a text file: the diff against what is there. A new file: its content.
      const abs = resolveToolPath(ctx, args.path);
      const shown = displayPath(ctx.cwd, abs);
      const existing = await ops.stat(abs);
      if (existing === null) return contentHead(shown, args.content);
      if (existing.kind !== "file" || existing.size > MAX_COMPARED_BYTES) return undefined;
      const raw = await ops.readFile(abs);
      if (looksBinary(raw)) return { kind: "text", text: `${shown}: a binary file, replaced by text.` };
      return previewChange(shown, new TextDecoder().decode(raw), args.content);
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
