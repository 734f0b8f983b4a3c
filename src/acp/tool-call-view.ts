/**
 * How one Shard tool call looks in ACP: its kind (the editor's icon), a one-line title, the
 * files it touches (follow-along), and its content — a diff for `edit` and `write`, the
 * command's output for `bash`, the tool's text for the rest.
 */
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import type { ToolResultContent } from "../types/messages.ts";

/** A file larger than this is not read for a `write` diff's old side (the diff shows new text only). */
const DIFF_READ_MAX_BYTES = 512 * 1024;
/** The most of a tool's output shown in the editor; the model saw the tool's own capped result. */
export const SHOWN_OUTPUT_MAX_CHARS = 64 * 1024;

export interface ToolCallInput {
  name: string;
  args: Record<string, unknown>;
}

export interface ToolCallView {
  kind: acp.ToolKind;
  title: string;
  locations: acp.ToolCallLocation[];
  /** The change an `edit` or `write` makes, known before it runs. */
  diff?: acp.Diff;
}

const KINDS: Record<string, acp.ToolKind> = {
  read: "read",
  recall: "read",
  edit: "edit",
  write: "edit",
  bash: "execute",
  grep: "search",
  find: "search",
  ls: "search",
};

export function toolCallView(call: ToolCallInput, cwd: string): ToolCallView {
  const text = (key: string) => {
    const value = call.args[key];
    return typeof value === "string" ? value : undefined;
  };
  const path = text("path");
  const absolute = path !== undefined ? (isAbsolute(path) ? path : resolve(cwd, path)) : undefined;
  const shown = absolute !== undefined ? displayPath(absolute, cwd) : undefined;
  const locations: acp.ToolCallLocation[] = [];
  if (absolute !== undefined) {
    const offset = call.args.offset;
    locations.push(
      typeof offset === "number" && Number.isInteger(offset) && offset > 0
        ? { path: absolute, line: offset }
        : { path: absolute },
    );
  }
  const kind = KINDS[call.name] ?? "other";
  switch (call.name) {
    case "read":
      return { kind, title: `Read ${shown ?? "file"}`, locations };
    case "edit": {
      const view: ToolCallView = { kind, title: `Edit ${shown ?? "file"}`, locations };
      const oldText = text("old_string");
      const newText = text("new_string");
      if (absolute !== undefined && oldText !== undefined && newText !== undefined)
        view.diff = { path: absolute, oldText, newText };
      return view;
    }
    case "write": {
      const view: ToolCallView = { kind, title: `Write ${shown ?? "file"}`, locations };
      const content = text("content");
      if (absolute !== undefined && content !== undefined)
        view.diff = { path: absolute, oldText: currentText(absolute), newText: content };
      return view;
    }
    case "bash":
      return { kind, title: oneLine(text("command") ?? "bash"), locations };
    case "grep":
      return {
        kind,
        title: `grep ${JSON.stringify(text("pattern") ?? "")}${shown ? ` in ${shown}` : ""}`,
        locations,
      };
    case "find":
      return { kind, title: `find ${text("pattern") ?? ""}${shown ? ` in ${shown}` : ""}`, locations };
    case "ls":
      return { kind, title: `ls ${shown ?? "."}`, locations };
    default:
      return { kind, title: mcpTitle(call.name), locations };
  }
}

/** The content of a finished call: its diff (edit, write), and its output as text. */
export function resultContent(
  view: ToolCallView | undefined,
  name: string | undefined,
  content: ToolResultContent,
  isError: boolean,
): acp.ToolCallContent[] {
  const out: acp.ToolCallContent[] = [];
  if (view?.diff !== undefined && !isError) out.push({ type: "diff", ...view.diff });
  const text = resultText(content);
  // A successful edit's "Edited x" line adds nothing to its diff.
  if (text !== "" && (out.length === 0 || isError))
    out.push(textContent(name === "bash" ? fenced(text) : text));
  return out;
}

/** Live output of a running command, shown as a terminal would (a fenced block). */
export function outputContent(tail: string): acp.ToolCallContent[] {
  return [textContent(fenced(tail))];
}

export function textContent(text: string): acp.ToolCallContent {
  return { type: "content", content: { type: "text", text: capped(text) } };
}

function resultText(content: ToolResultContent): string {
  switch (content.kind) {
    case "text":
      return content.text;
    case "error":
      return content.message;
    case "json":
      return JSON.stringify(content.value, null, 2) ?? "";
  }
}

function fenced(text: string): string {
  const body = capped(text).replace(/\n$/, "");
  // A fence longer than any backtick run inside, so output cannot close it early.
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}\n${body}\n${fence}`;
}

function capped(text: string): string {
  return text.length <= SHOWN_OUTPUT_MAX_CHARS ? text : `…${text.slice(-SHOWN_OUTPUT_MAX_CHARS)}`;
}

function oneLine(text: string): string {
  const first = text.split("\n")[0] ?? "";
  const line = first.length > 200 ? `${first.slice(0, 200)}…` : first;
  return text.includes("\n") ? `${line} …` : line;
}

function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}

/** `mcp__server__tool` reads as `tool (server)`. */
function mcpTitle(name: string): string {
  const parts = name.split("__");
  if (parts.length === 3 && parts[0] === "mcp") return `${parts[2]} (${parts[1]})`;
  return name;
}

/** The text a `write` replaces, when the file is there and small enough to show; null when new. */
function currentText(path: string): string | null {
  try {
    if (statSync(path).size > DIFF_READ_MAX_BYTES) return null;
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
