/** `read`: a text file page by page, or an image as model input (docs/architecture.md §6.2). */
import { type Static, Type } from "@sinclair/typebox";
import type { Tool, ToolContext, ToolResult } from "../contracts/tool.ts";
import { describeError } from "../support/describe-error.ts";
import { detectImageMime, looksBinary } from "./file-kind.ts";
import { type FileOps, nodeFileOps } from "./file-ops.ts";
import { displayPath, liesInside, resolveToolPath } from "./resolve-path.ts";
import { errorResult, textResult } from "./tool-result.ts";
import { capLine, DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatBytes, takeHead } from "./truncate.ts";

const ReadParams = Type.Object({
  path: Type.String({
    description: "Path of the file to read, relative to the working directory or absolute (`~` is expanded).",
  }),
  offset: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: "1-based line number to start reading from. Use it to continue after a truncated read.",
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, description: "Maximum number of lines to return (default and cap: 2000)." }),
  ),
});
export type ReadArgs = Static<typeof ReadParams>;

type ClientReader = () => Promise<string | undefined>;

/**
 * How to ask the client for the file's text (an editor's unsaved buffer), when it serves reads:
 * only for the very path the permission gate judged and allowed, and only inside the cwd. Any
 * other path is never named to the client, whatever the gate said.
 */
function clientReader(
  ctx: Pick<ToolContext, "cwd" | "judgedPaths" | "readClientFile">,
  requested: string,
  abs: string,
): ClientReader | undefined {
  const read = ctx.readClientFile;
  if (read === undefined || ctx.judgedPaths?.get(requested) !== abs || !liesInside(ctx.cwd, abs))
    return undefined;
  return () => read(abs);
}

export interface ReadToolOptions {
  ops?: FileOps;
  /** Prefix each line with its number (`cat -n` style). Off by default: the model gets raw text. */
  lineNumbers?: boolean;
  maxLines?: number;
  maxBytes?: number;
  /** Longer lines are cut, with a marker saying how much was cut. */
  maxLineChars?: number;
  /** Larger images are refused: providers reject them anyway. */
  maxImageBytes?: number;
}

export function createReadTool(options: ReadToolOptions = {}): Tool<typeof ReadParams> {
  const ops = options.ops ?? nodeFileOps;
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxLineChars = options.maxLineChars ?? 2000;
  const maxImageBytes = options.maxImageBytes ?? 5 * 1024 * 1024;

  return {
    name: "read",
    description:
      `Read a file. Text files come back as raw text, ${maxLines} lines or ${formatBytes(maxBytes)} at most per call; ` +
      "when the output is cut, a final bracketed note gives the offset to continue from. Lines longer than " +
      `${maxLineChars} characters are cut. PNG, JPEG, GIF and WebP images are returned as images you can see. ` +
      "Other binary files and directories are refused (use `ls` for directories).",
    parameters: ReadParams,
    isReadOnly: true,
    paths: (args) => [args.path],
    async execute(args, ctx) {
      const abs = resolveToolPath(ctx, args.path);
      return readFileAt(abs, displayPath(ctx.cwd, abs), args, clientReader(ctx, args.path, abs));
    },
  };

  async function readFileAt(
    abs: string,
    shown: string,
    args: ReadArgs,
    fromClient: ClientReader | undefined,
  ): Promise<ToolResult> {
    let bytes: Uint8Array;
    try {
      const info = await ops.stat(abs);
      if (info === null) {
        // A buffer the editor has not saved yet may exist only there.
        const unsaved = await fromClient?.();
        if (unsaved !== undefined) return textPage(unsaved, shown, args);
        return errorResult(
          `File not found: ${shown}. Relative paths resolve against the working directory; use \`find\` or \`ls\` to locate the file.`,
        );
      }
      if (info.kind === "dir")
        return errorResult(`${shown} is a directory, not a file. Use \`ls\` to list it.`);
      if (info.kind !== "file")
        return errorResult(`${shown} is not a regular file (device, socket or FIFO).`);
      bytes = await ops.readFile(abs);
    } catch (error) {
      return errorResult(`Cannot read ${shown}: ${describeError(error)}`);
    }

    const mime = detectImageMime(bytes);
    if (mime !== null) {
      if (bytes.length > maxImageBytes) {
        return errorResult(
          `${shown} is a ${mime} image of ${formatBytes(bytes.length)}, over the ${formatBytes(maxImageBytes)} image limit. ` +
            "Resize it first (for example with a bash image tool) and read the smaller copy.",
        );
      }
      const data = Buffer.from(bytes).toString("base64");
      return textResult(`Read image ${shown} (${mime}, ${formatBytes(bytes.length)}).`, {
        images: [{ type: "image", data, mime_type: mime }],
      });
    }
    if (looksBinary(bytes)) {
      return errorResult(
        `${shown} is a binary file (${formatBytes(bytes.length)}); only text files and PNG/JPEG/GIF/WebP images can be read. ` +
          "Inspect it with bash (e.g. `file`, `xxd | head`) if you need to.",
      );
    }
    // Only a text file is asked for: images and binary files are the disk's.
    const buffered = await fromClient?.();
    return textPage(buffered ?? new TextDecoder().decode(bytes), shown, args);
  }

  function textPage(text: string, shown: string, args: ReadArgs): ToolResult {
    const allLines = text.split(/\r?\n/);
    if (allLines.length > 0 && allLines[allLines.length - 1] === "") allLines.pop();
    const total = allLines.length;
    if (total === 0) return textResult("(empty file)", { render: { kind: "code", path: shown, text: "" } });

    const start = args.offset ?? 1;
    if (start > total) {
      return errorResult(
        `offset ${start} is past the end of ${shown}, which has ${total} lines. Use an offset from 1 to ${total}.`,
      );
    }
    const wanted = Math.min(args.limit ?? maxLines, maxLines);
    const window = allLines.slice(start - 1, start - 1 + wanted).map((line, i) => {
      const capped = capLine(line, maxLineChars);
      return options.lineNumbers ? `${String(start + i).padStart(6)}\t${capped}` : capped;
    });
    const head = takeHead(window, { maxLines: wanted, maxBytes });
    let body = head.text;
    let kept = head.keptLines;
    if (kept === 0) {
      // One line larger than the byte budget (only with a tiny maxBytes): show its beginning.
      body = Buffer.from(window[0] ?? "", "utf8")
        .subarray(0, maxBytes)
        .toString("utf8");
      kept = 1;
    }
    const end = start + kept - 1;
    const render = { kind: "code" as const, path: shown, text: body };
    if (end >= total) return textResult(body, { render });

    const reason = head.truncatedBy === "bytes" ? ` (${formatBytes(maxBytes)} limit)` : "";
    const hint = `[Showing lines ${start}-${end} of ${total}${reason}. Use offset=${end + 1} to continue.]`;
    return textResult(`${body}\n\n${hint}`, { render });
  }
}
