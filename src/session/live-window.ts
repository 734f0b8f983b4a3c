/**
 * The live window (ARCHITECTURE §5): the messages from the newest compaction's first kept
 * entry to the head, led by the compaction's summary as a user message. Non-message entries
 * (mode/model changes, checkpoints, older compactions) are not part of the conversation.
 */
import type { LiveWindow } from "../types/agent-events.ts";
import type {
  CompactionEntry,
  MessageEntry,
  SessionEntry,
  ToolResultEntry,
} from "../types/session-entries.ts";
import type { Message } from "../types/shared.ts";

export type ConversationEntry = MessageEntry | ToolResultEntry;

export interface WindowEntries {
  compaction: CompactionEntry | null;
  /** Message and tool_result entries of the window, in chain order. */
  entries: ConversationEntry[];
}

export function isConversationEntry(entry: SessionEntry): entry is ConversationEntry {
  return entry.type === "message" || entry.type === "tool_result";
}

function findIndex(entries: readonly SessionEntry[], id: string, from: number, to: number): number {
  for (let i = from; i <= to; i++) if (entries[i]?.id === id) return i;
  return -1;
}

/** The window as it was at `entries[endIndex]` (default: the head). */
export function windowEntriesAt(
  entries: readonly SessionEntry[],
  endIndex = entries.length - 1,
): WindowEntries {
  let compactionAt = -1;
  for (let i = endIndex; i >= 0; i--) {
    if (entries[i]?.type === "compaction") {
      compactionAt = i;
      break;
    }
  }
  let start = 0;
  let compaction: CompactionEntry | null = null;
  if (compactionAt >= 0) {
    compaction = entries[compactionAt] as CompactionEntry;
    // Usually the kept entries precede the compaction entry; in a fork they follow its copy.
    let kept = -1;
    for (let i = compactionAt - 1; i >= 0; i--) {
      if (entries[i]?.id === compaction.first_kept_entry_id) {
        kept = i;
        break;
      }
    }
    if (kept < 0) kept = findIndex(entries, compaction.first_kept_entry_id, compactionAt + 1, endIndex);
    start = kept >= 0 ? kept : compactionAt + 1;
  }
  const out: ConversationEntry[] = [];
  for (let i = start; i <= endIndex; i++) {
    const entry = entries[i] as SessionEntry;
    if (isConversationEntry(entry)) out.push(entry);
  }
  return { compaction, entries: out };
}

/** The leading user message that stands in for everything a compaction summarized. */
export function summaryMessage(compaction: CompactionEntry): Message {
  const n = compaction.index;
  const older = n > 0 ? ` Older spans are under indexes 0–${n - 1}.` : "";
  const note =
    `[Context compacted] Earlier messages of this conversation were replaced by the summary below ` +
    `(compaction index ${n}). The exact original messages are kept: call the \`recall\` tool with ` +
    `{"index": ${n}} (add "page" to continue) to read them.${older}`;
  return {
    id: compaction.id,
    role: "user",
    content: [{ type: "text", text: `${note}\n\n${compaction.summary}` }],
  };
}

export function liveWindowOf(window: WindowEntries): LiveWindow {
  const messages: Message[] = [];
  if (window.compaction) messages.push(summaryMessage(window.compaction));
  for (const entry of window.entries) messages.push(entry.message);
  const { compaction } = window;
  if (!compaction) return { messages };
  return {
    messages,
    compaction_index: compaction.index,
    compaction_tokens: {
      before: Math.round(compaction.tokens_before),
      after: Math.round(compaction.tokens_after),
    },
  };
}
