/**
 * The summarizer seam: the deterministic digest by default; the runtime may plug in a
 * model-backed summarizer (config `compaction.summarizer: "model"`) wrapped so that any
 * failure falls back to the deterministic digest.
 */
import { describeError } from "../../support/describe-error.ts";
import type { Message } from "../../types/messages.ts";
import { deterministicDigest } from "./deterministic-digest.ts";

export interface SummarizerInput {
  /** The exact messages being compacted, oldest first. */
  messages: Message[];
  /** The summary of the previous compaction, to be folded in. */
  previousSummary: string | null;
}

export type Summarizer = (input: SummarizerInput) => Promise<string>;

export const deterministicSummarizer: Summarizer = async (input) => deterministicDigest(input);

/** A summarizer that uses `primary` and falls back to the deterministic digest when it throws or returns nothing. */
export function withDeterministicFallback(
  primary: Summarizer,
  onFallback?: (reason: string) => void,
): Summarizer {
  return async (input) => {
    try {
      const summary = await primary(input);
      if (summary.trim() !== "") return summary;
      onFallback?.("summarizer returned an empty summary");
    } catch (err) {
      onFallback?.(`summarizer failed: ${describeError(err)}`);
    }
    return deterministicDigest(input);
  };
}
