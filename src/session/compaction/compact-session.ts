/**
 * Compaction (docs/architecture.md §6.6, docs/protocol.md §10.1 session_op compact): summarize the
 * oldest part of the live window into a CompactionEntry and keep the newest `keepRecentTokens`
 * worth of messages. The summarized messages stay in the file; `recall` reads them back by index.
 */
import type { SessionStore } from "../../contracts/session-store.ts";
import { describeError } from "../../support/describe-error.ts";
import type { Message } from "../../types/messages.ts";
import type { CompactionEntry } from "../../types/session-entries.ts";
import { summaryMessage, windowEntriesAt } from "../live-window.ts";
import { findCutPoint } from "./cut-point.ts";
import { deterministicSummarizer, type Summarizer } from "./summarizer.ts";
import { estimateTokens } from "./token-estimate.ts";

export interface CompactOptions {
  keepRecentTokens: number;
  /** Default: the deterministic digest. Wrap a model summarizer with `withDeterministicFallback`. */
  summarizer?: Summarizer;
  /** Aborting cancels the compaction: nothing is written and the result says so. */
  signal?: AbortSignal;
}

export interface CompactionDone {
  compacted: true;
  index: number;
  tokens_before: number;
  tokens_after: number;
  first_kept_entry_id: string;
  message_range: [string, string];
}

export type CompactResult =
  | CompactionDone
  | { compacted: false; reason: "no_safe_cut" }
  | { error: { code: "INTERNAL_ERROR" | "CONFLICT"; message: string }; aborted?: true };

const ABORTED: CompactResult = {
  error: { code: "CONFLICT", message: "compaction aborted: nothing was written" },
  aborted: true,
};

function sumTokens(messages: readonly Message[]): number {
  let total = 0;
  for (const m of messages) total += estimateTokens(m);
  return total;
}

/** The next compaction index: one past the highest in this chain (a fork keeps its copied index). */
export function nextCompactionIndex(store: SessionStore): number {
  let max = -1;
  for (const entry of store.entries())
    if (entry.type === "compaction" && entry.index > max) max = entry.index;
  return max + 1;
}

export async function compactSession(store: SessionStore, options: CompactOptions): Promise<CompactResult> {
  if (options.signal?.aborted) return ABORTED;
  const window = windowEntriesAt(store.entries());
  const cut = findCutPoint(window.entries, options.keepRecentTokens);
  if (!cut.ok) return { compacted: false, reason: cut.reason };

  const summarized = window.entries.slice(0, cut.index);
  const kept = window.entries.slice(cut.index);
  const previousSummary = window.compaction?.summary ?? null;
  const summarize = options.summarizer ?? deterministicSummarizer;
  let summary: string;
  try {
    summary = await summarize({ messages: summarized.map((e) => e.message), previousSummary });
  } catch (err) {
    return {
      error: {
        code: "INTERNAL_ERROR",
        message: `compactor failed: ${describeError(err)}`,
      },
    };
  }
  if (options.signal?.aborted) return ABORTED;
  if (typeof summary !== "string" || summary.trim() === "") {
    return { error: { code: "INTERNAL_ERROR", message: "compactor produced an empty summary" } };
  }

  const tokensBefore =
    (window.compaction ? estimateTokens(summaryMessage(window.compaction)) : 0) +
    sumTokens(window.entries.map((e) => e.message));
  const first = summarized[0];
  const last = summarized.at(-1);
  const firstKept = kept[0];
  // findCutPoint never leaves either side empty; a cut that did is a bug, not a compaction.
  if (first === undefined || last === undefined || firstKept === undefined) {
    return {
      error: { code: "INTERNAL_ERROR", message: `compaction cut at ${cut.index} left an empty side` },
    };
  }
  const payload: Omit<CompactionEntry, "id" | "parent_id" | "ts"> = {
    type: "compaction",
    index: nextCompactionIndex(store),
    summary,
    first_kept_entry_id: firstKept.id,
    message_range: [first.id, last.id],
    tokens_before: tokensBefore,
    tokens_after: 0,
  };
  const asEntry: CompactionEntry = { ...payload, id: "", parent_id: null, ts: 0 };
  payload.tokens_after = estimateTokens(summaryMessage(asEntry)) + sumTokens(kept.map((e) => e.message));

  try {
    store.append(payload);
  } catch (err) {
    return {
      error: { code: "INTERNAL_ERROR", message: `cannot record compaction: ${describeError(err)}` },
    };
  }
  return {
    compacted: true,
    index: payload.index,
    tokens_before: payload.tokens_before,
    tokens_after: payload.tokens_after,
    first_kept_entry_id: payload.first_kept_entry_id,
    message_range: payload.message_range,
  };
}
