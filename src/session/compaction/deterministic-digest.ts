/**
 * The default compactor (docs/architecture.md §6.6): a structured markdown digest built without a
 * model call — user requests verbatim, files read and changed, commands and their exit
 * codes, the latest plan (last assistant text), and the previous summary folded in. Lists
 * are capped; the exact messages stay reachable through `recall`.
 */
import type { Message } from "../../types/messages.ts";

export interface DigestInput {
  messages: readonly Message[];
  previousSummary: string | null;
}

const REQUEST_CHARS = 600;
const MAX_REQUESTS = 40;
const MAX_FILES = 120;
const COMMAND_CHARS = 200;
const MAX_COMMANDS = 60;
const PLAN_CHARS = 2000;
const PREVIOUS_CHARS = 8000;

const READ_TOOLS = new Set(["read"]);
const WRITE_TOOLS = new Set(["write", "edit"]);

function trim(text: string, max: number): string {
  const t = text.trim();
  return t.length > max ? `${t.slice(0, max).trimEnd()} […${t.length - max} more chars]` : t;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Newest `max` items, noting how many older ones were left out. */
function capped(lines: string[], max: number): string[] {
  if (lines.length <= max) return lines;
  return [`- … ${lines.length - max} earlier omitted`, ...lines.slice(-max)];
}

function textOf(message: Message): string {
  return message.content
    .flatMap((b) => (b.type === "text" ? [b.text] : []))
    .join("\n")
    .trim();
}

interface CommandRun {
  command: string;
  outcome: string;
}

export function deterministicDigest(input: DigestInput): string {
  const requests: string[] = [];
  const filesRead = new Set<string>();
  const filesChanged = new Set<string>();
  const commands = new Map<string, CommandRun>();
  let lastAssistantText = "";

  for (const message of input.messages) {
    const isToolResult = message.content.some((b) => b.type === "tool_result");
    if (message.role === "user" && !isToolResult) {
      const text = textOf(message);
      if (text !== "") requests.push(text);
    }
    if (message.role === "assistant") {
      const text = textOf(message);
      if (text !== "") lastAssistantText = text;
    }
    for (const block of message.content) {
      if (block.type === "tool_call") {
        const path = block.args.path;
        if (typeof path === "string" && READ_TOOLS.has(block.name)) filesRead.add(path);
        if (typeof path === "string" && WRITE_TOOLS.has(block.name)) filesChanged.add(path);
        const command = block.args.command;
        if (block.name === "bash" && typeof command === "string") {
          commands.set(block.id, {
            command: trim(oneLine(command), COMMAND_CHARS),
            outcome: "no result recorded",
          });
        }
      } else if (block.type === "tool_result") {
        const run = commands.get(block.tool_call_id);
        if (run) {
          run.outcome =
            block.exit_code !== undefined
              ? `exit ${block.exit_code}`
              : block.is_error
                ? "failed"
                : "completed";
        }
      }
    }
  }

  const out: string[] = [`# Summary of ${input.messages.length} earlier messages`];
  if (input.previousSummary) {
    out.push("", "## Earlier summary", trim(input.previousSummary, PREVIOUS_CHARS));
  }
  const numbered = requests.map((r, i) => `${i + 1}. ${trim(r, REQUEST_CHARS).replace(/\n/g, "\n   ")}`);
  out.push("", "## User requests", ...(numbered.length > 0 ? capped(numbered, MAX_REQUESTS) : ["(none)"]));
  if (filesRead.size > 0)
    out.push(
      "",
      "## Files read",
      ...capped(
        [...filesRead].map((p) => `- ${p}`),
        MAX_FILES,
      ),
    );
  if (filesChanged.size > 0) {
    out.push(
      "",
      "## Files changed",
      ...capped(
        [...filesChanged].map((p) => `- ${p}`),
        MAX_FILES,
      ),
    );
  }
  if (commands.size > 0) {
    const lines = [...commands.values()].map((c) => `- \`${c.command}\` → ${c.outcome}`);
    out.push("", "## Commands run", ...capped(lines, MAX_COMMANDS));
  }
  if (lastAssistantText !== "")
    out.push("", "## Latest plan / decisions", trim(lastAssistantText, PLAN_CHARS));
  return out.join("\n");
}
