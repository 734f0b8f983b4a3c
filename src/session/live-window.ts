/**
 * The live window (docs/architecture.md §9.2): the messages from the newest compaction's first kept
 * entry to the head, led by the compaction's summary as a user message. Non-message entries
 * (mode/model changes, checkpoints, older compactions) are not part of the conversation; the
 * turn failures of the window ride along for the transcript, never for the model.
 */
import { MAX_WINDOW_FAILURES } from "../snapshot/turn-failures.ts";
import type { LiveWindow } from "../types/agent-events.ts";
import type { Message } from "../types/messages.ts";
import type {
  CompactionEntry,
  MessageEntry,
  SessionEntry,
  ToolResultEntry,
  TurnFailureEntry,
} from "../types/session-entries.ts";
import type { TurnFailure } from "../types/turn-failures.ts";

export type ConversationEntry = MessageEntry | ToolResultEntry;

export interface WindowEntries {
  compaction: CompactionEntry | null;
  /** Message and tool_result entries of the window, in chain order. */
  entries: ConversationEntry[];
  /** The turn_failure entries of the window, in chain order. */
  failures: TurnFailureEntry[];
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
  let compaction: CompactionEntry | null = null;
  for (let i = endIndex; i >= 0; i--) {
    const entry = entries[i];
    if (entry?.type === "compaction") {
      compactionAt = i;
      compaction = entry;
      break;
    }
  }
  let start = 0;
  if (compaction) {
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
  const failures: TurnFailureEntry[] = [];
  for (const entry of entries.slice(start, endIndex + 1)) {
    if (isConversationEntry(entry)) out.push(entry);
    else if (entry.type === "turn_failure") failures.push(entry);
  }
  return { compaction, entries: out, failures };
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
  const failures = anchoredFailures(messages, window.failures);
  const shown: LiveWindow = failures.length > 0 ? { messages, failures } : { messages };
  const { compaction } = window;
  if (!compaction) return shown;
  return {
    ...shown,
    compaction_index: compaction.index,
    compaction_tokens: {
      before: Math.round(compaction.tokens_before),
      after: Math.round(compaction.tokens_after),
    },
  };
}

/** A failure entry as the live window shows it. */
export function turnFailureOf(entry: TurnFailureEntry): TurnFailure {
  const { type: _type, parent_id: _parent, ...failure } = entry;
  return failure;
}

/** The failures drawn after a message of the window (the newest MAX_WINDOW_FAILURES). */
function anchoredFailures(messages: readonly Message[], entries: readonly TurnFailureEntry[]): TurnFailure[] {
  if (entries.length === 0) return [];
  const ids = new Set(messages.map((m) => m.id));
  return entries
    .filter((f) => f.after_message_id !== undefined && ids.has(f.after_message_id))
    .slice(-MAX_WINDOW_FAILURES)
    .map(turnFailureOf);
}
