/**
 * `edit`: replace an exact snippet of a file, returning the change as a diff
 * (docs/architecture.md §6.2).
 */
import { type Static, Type } from "@sinclair/typebox";
import type { PreviewContext, Tool, ToolResult } from "../contracts/tool.ts";
import { countChangedLines } from "../support/changed-lines.ts";
import { describeError } from "../support/describe-error.ts";
import { previewChange } from "./change-preview.ts";
import {
  countOccurrences,
  diffHunks,
  type FileTextShape,
  findIgnoringWhitespace,
  normalizeNewlines,
  parseFileText,
  replaceLiteral,
  serializeFileText,
} from "./edit-text.ts";
import { looksBinary } from "./file-kind.ts";
import { type FileOps, nodeFileOps } from "./file-ops.ts";
import { displayPath, resolveToolPath } from "./resolve-path.ts";
import { errorResult, textResult } from "./tool-result.ts";

const EditParams = Type.Object({
  path: Type.String({
    description: "Path of the file to edit, relative to the working directory or absolute (`~` is expanded).",
  }),
  old_string: Type.String({
    description:
      "The exact text to replace, including whitespace and indentation. It must occur exactly once unless " +
      "replace_all is true; include surrounding lines to make it unique.",
  }),
  new_string: Type.String({ description: "The text to put in its place (must differ from old_string)." }),
  replace_all: Type.Optional(
    Type.Boolean({
      description: "Replace every occurrence of old_string instead of exactly one. Default false.",
    }),
  ),
});
export type EditArgs = Static<typeof EditParams>;

export interface EditToolOptions {
  ops?: FileOps;
}

export function createEditTool(options: EditToolOptions = {}): Tool<typeof EditParams> {
  const ops = options.ops ?? nodeFileOps;
  return {
    name: "edit",
    description:
      "Edit a file by replacing an exact string. old_string must match the file exactly (whitespace included) " +
      "and be unique unless replace_all is set. Line endings (CRLF) and a byte-order mark are preserved. " +
      "Read the file first so you copy the text exactly. Use `write` to create new files.",
    parameters: EditParams,
    isReadOnly: false,
    paths: (args) => [args.path],
    async preview(args, ctx) {
      const plan = await planEdit(ops, args, ctx);
      return plan.ok ? previewChange(plan.shown, plan.shape.body, plan.body) : undefined;
    },
    async execute(args, ctx) {
      const plan = await planEdit(ops, args, ctx);
      if (!plan.ok) return plan.result;
      const { abs, shown, shape, body, count } = plan;
      try {
        await ops.writeFile(abs, serializeFileText({ ...shape, body }));
      } catch (error) {
        return errorResult(`Cannot write ${shown}: ${describeError(error)}`);
      }
      const hunks = await diffHunks(shown, shape.body, body);
      const { added, removed } = countChangedLines(hunks);
      const what = count === 1 ? "1 occurrence" : `${count} occurrences`;
      return textResult(`Edited ${shown}: replaced ${what} (+${added} -${removed} lines).`, {
        render: { kind: "diff", path: shown, hunks },
      });
    },
  };
}

type EditPlan =
  | { ok: true; abs: string; shown: string; shape: FileTextShape; body: string; count: number }
  | { ok: false; result: ToolResult };

const refused = (message: string): EditPlan => ({ ok: false, result: errorResult(message) });

/** Everything an edit does short of writing: checks, the read, the replacement. */
async function planEdit(ops: FileOps, args: EditArgs, ctx: PreviewContext): Promise<EditPlan> {
  const abs = resolveToolPath(ctx, args.path);
  const shown = displayPath(ctx.cwd, abs);
  if (args.old_string === "") {
    return refused("old_string is empty. Give the exact text to replace, or use `write` to create a file.");
  }
  const oldText = normalizeNewlines(args.old_string);
  const newText = normalizeNewlines(args.new_string);
  if (oldText === newText) {
    return refused("old_string and new_string are identical, so there is nothing to change.");
  }

  let raw: Uint8Array;
  try {
    const info = await ops.stat(abs);
    if (info === null) return refused(`File not found: ${shown}. To create a new file, use \`write\`.`);
    if (info.kind !== "file") return refused(`${shown} is not a regular file; only files can be edited.`);
    raw = await ops.readFile(abs);
  } catch (error) {
    return refused(`Cannot read ${shown}: ${describeError(error)}`);
  }
  if (looksBinary(raw)) return refused(`${shown} is a binary file; edit only works on text files.`);

  const shape = parseFileText(new TextDecoder("utf-8", { ignoreBOM: true }).decode(raw));
  const count = countOccurrences(shape.body, oldText);
  if (count === 0) {
    const near = findIgnoringWhitespace(shape.body, oldText);
    const hint =
      near === null
        ? "Read the file again and copy the text exactly, including indentation."
        : `Text matching it apart from whitespace starts at line ${near}: read that part of the file and copy its exact whitespace (tabs vs spaces, trailing spaces).`;
    return refused(`old_string was not found in ${shown}. ${hint}`);
  }
  if (count > 1 && args.replace_all !== true) {
    return refused(
      `old_string occurs ${count} times in ${shown}. Include more surrounding lines to make it unique, ` +
        "or set replace_all to true to replace every occurrence.",
    );
  }
  const body = replaceLiteral(shape.body, oldText, newText, args.replace_all === true);
  return { ok: true, abs, shown, shape, body, count };
}
