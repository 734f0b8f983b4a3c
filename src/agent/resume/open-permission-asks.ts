/**
 * Resume: the tool calls that never ran because the runtime died while their permission
 * question was open (a `permission_wait` entry `asked` without `answered`: the daemon stopped,
 * or a kill). Calls run one at a time, in order, so every unanswered call after that one never
 * started either. They are asked again when the runtime resumes, instead of being recorded as
 * interrupted; a call that got its answer and may have run stays interrupted.
 */
import type { SessionStore } from "../../contracts/session-store.ts";
import type { ToolCallBlock } from "../../types/messages.ts";
import { unansweredToolCalls } from "./interrupted-tool-calls.ts";

export function openPermissionAsks(session: SessionStore): ToolCallBlock[] {
  const messages = session.liveWindow().messages;
  const unanswered = new Set(unansweredToolCalls(messages));
  if (unanswered.size === 0) return [];
  const last = messages.at(-1)?.role === "assistant" ? messages.at(-1) : undefined;
  if (!last) return [];
  const phases = new Map<string, "asked" | "answered">();
  for (const entry of session.entries())
    if (entry.type === "permission_wait") phases.set(entry.tool_call_id, entry.phase);
  const calls = last.content.filter(
    (b): b is ToolCallBlock => b.type === "tool_call" && unanswered.has(b.id),
  );
  const open = calls.findIndex((b) => phases.get(b.id) === "asked");
  if (open === -1) return [];
  // Every call before it finished (in order); one that did not is not asked again.
  return calls.slice(open);
}
