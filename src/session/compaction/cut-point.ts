/**
 * Where compaction may cut the live window. Everything before the cut is summarized, the cut
 * entry and everything after it is kept. A cut never separates an assistant message's tool
 * calls from their results — with parallel calls, several tool_result entries follow one
 * assistant message, and the cut may not fall before any of them, nor before a message that
 * arrives while some of those calls still await a result that is recorded later.
 */
import type { Message } from "../../types/messages.ts";
import type { ConversationEntry } from "../live-window.ts";
import { estimateTokens } from "./token-estimate.ts";

export type CutPoint = { ok: true; index: number } | { ok: false; reason: "no_safe_cut" };

function isToolResult(message: Message): boolean {
  return message.content.some((b) => b.type === "tool_result");
}

/** safe[j]: a cut before entries[j] keeps every tool call together with its result. */
export function safeCutBoundaries(entries: readonly ConversationEntry[]): boolean[] {
  const resultAt = new Map<string, number>();
  entries.forEach((entry, i) => {
    for (const block of entry.message.content) {
      if (block.type === "tool_result" && !resultAt.has(block.tool_call_id))
        resultAt.set(block.tool_call_id, i);
    }
  });
  const safe = new Array<boolean>(entries.length).fill(false);
  // Calls made so far whose result is recorded later (a call never answered — an aborted turn — does not block).
  const awaiting = new Set<string>();
  entries.forEach((entry, j) => {
    safe[j] = j > 0 && awaiting.size === 0 && !isToolResult(entry.message);
    for (const block of entry.message.content) {
      if (block.type === "tool_call" && (resultAt.get(block.id) ?? -1) > j) awaiting.add(block.id);
      else if (block.type === "tool_result") awaiting.delete(block.tool_call_id);
    }
  });
  return safe;
}

/**
 * The cut that keeps the newest entries worth at least `keepRecentTokens`, moved earlier
 * (keeping more) to the nearest safe boundary. The summarized part is never empty.
 */
export function findCutPoint(entries: readonly ConversationEntry[], keepRecentTokens: number): CutPoint {
  let kept = 0;
  let candidate = -1;
  for (let i = entries.length - 1; i >= 1; i--) {
    const entry = entries[i];
    if (entry === undefined) break;
    kept += estimateTokens(entry.message);
    if (kept >= keepRecentTokens) {
      candidate = i;
      break;
    }
  }
  if (candidate < 0) return { ok: false, reason: "no_safe_cut" };
  const safe = safeCutBoundaries(entries);
  for (let j = candidate; j >= 1; j--) if (safe[j]) return { ok: true, index: j };
  return { ok: false, reason: "no_safe_cut" };
}
