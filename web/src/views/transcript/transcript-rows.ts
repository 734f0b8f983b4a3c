/**
 * What the transcript lists: the live window's messages, except the tool-result messages whose
 * call is shown (their result is drawn inside the call's card instead). Rows are the message
 * objects themselves, so a row keeps its identity while the window grows around it.
 */
import type { ToolCallRecord } from "../../../../src/types/agent-events.ts";
import type { Message, ToolResultBlock } from "../../../../src/types/messages.ts";

export interface CallIndex {
  /** Each call's result block, by tool_call_id. */
  results: ReadonlyMap<string, ToolResultBlock>;
  /** The rows to draw, oldest first. */
  rows: readonly Message[];
}

export function indexMessages(messages: readonly Message[]): CallIndex {
  const calls = new Set<string>();
  const results = new Map<string, ToolResultBlock>();
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type === "tool_call") calls.add(block.id);
      else if (block.type === "tool_result") results.set(block.tool_call_id, block);
    }
  }
  const rows = messages.filter((m) => !isShownResult(m, calls));
  return { results, rows };
}

export function recordsById(
  records: readonly ToolCallRecord[] | undefined,
): ReadonlyMap<string, ToolCallRecord> {
  return new Map((records ?? []).map((r) => [r.tool_call_id, r]));
}

function isShownResult(message: Message, calls: ReadonlySet<string>): boolean {
  if (message.role !== "user" || message.content.length === 0) return false;
  return message.content.every((b) => b.type === "tool_result" && calls.has(b.tool_call_id));
}
