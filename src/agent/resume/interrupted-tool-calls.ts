/**
 * Resume repair: a runtime killed while a tool ran leaves an assistant tool call without a
 * result at the end of the session. Providers reject such a history, so on resume each
 * unanswered call in the live window gets a durable error result saying it was interrupted.
 */
import type { SessionStore } from "../../contracts/session-store.ts";
import { toolResultMessage } from "../../snapshot/live-window.ts";
import { errorResult } from "../../tools/tool-result.ts";
import type { Message } from "../../types/messages.ts";
import { toolResultEvent } from "../turn/tool-result-message.ts";

export const INTERRUPTED_REASON =
  "interrupted: the agent stopped (crash or kill) before this tool call finished; its outcome is unknown";

/** Tool call ids in `messages` that no tool_result answers, in call order. */
export function unansweredToolCalls(messages: readonly Message[]): string[] {
  const answered = new Set<string>();
  for (const m of messages)
    for (const b of m.content) if (b.type === "tool_result") answered.add(b.tool_call_id);
  const open: string[] = [];
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    for (const b of m.content) if (b.type === "tool_call" && !answered.has(b.id)) open.push(b.id);
  }
  return open;
}

/**
 * Appends an interrupted result for every unanswered call but those in `keep` (asked again,
 * open-permission-asks.ts); returns how many were added.
 */
export function answerInterruptedToolCalls(
  session: SessionStore,
  newId: (prefix: string) => string,
  keep: ReadonlySet<string> = new Set(),
): number {
  const open = unansweredToolCalls(session.liveWindow().messages).filter((id) => !keep.has(id));
  for (const toolCallId of open) {
    const messageId = newId("msg");
    const event = toolResultEvent(messageId, toolCallId, errorResult(INTERRUPTED_REASON));
    const message = toolResultMessage(event, messageId);
    session.append({ type: "tool_result", message });
  }
  return open.length;
}
