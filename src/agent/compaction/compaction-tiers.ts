/**
 * Compaction tiers for one runtime (docs/architecture.md §6.6, docs/protocol.md §10.1, §6): manual
 * (`session_op compact`), between turns above the reserve threshold, and mid-turn at an
 * iteration boundary once the window is full. Every run shows `status compacting` and, on
 * success, one `compaction` event. Every run is abortable: `abort` cancels the summarizer and
 * nothing is written.
 */
import type { ModelSpec, ProviderUsage } from "../../contracts/provider.ts";
import type { SessionStore } from "../../contracts/session-store.ts";
import { computeCost } from "../../providers/cost.ts";
import { type CompactResult, compactSession } from "../../session/compaction/compact-session.ts";
import type { CompactionConfig } from "../../session/compaction/compaction-config.ts";
import { withDeterministicFallback } from "../../session/compaction/summarizer.ts";
import { contextTokens, type UsageMark } from "../../session/compaction/token-estimate.ts";
import type { UnsequencedAgentEvent } from "../../types/catalog.ts";
import type { UsageEvent } from "../../types/stream-events.ts";
import type { ModelController } from "../models/model-controller.ts";
import { modelSummarizer } from "./model-summarizer.ts";

export interface CompactionDeps {
  config: CompactionConfig;
  session: SessionStore;
  models: ModelController;
  emit: (event: UnsequencedAgentEvent) => void;
  setCompacting: (active: boolean) => void;
}

/** A finished manual compaction whose `compacting` status lasts until `release()`. */
export interface ManualCompaction {
  outcome: CompactResult;
  release: () => void;
}

export class Compaction {
  private lastUsage: UsageMark | undefined;
  /** The run in progress, so `abort` can cancel it. */
  private running: AbortController | undefined;

  constructor(private readonly deps: CompactionDeps) {}

  get config(): CompactionConfig {
    return this.deps.config;
  }

  /** Builds the `usage` event for one provider call and remembers it for context accounting. */
  recordUsage(usage: ProviderUsage, spec: ModelSpec, messageId: string): UsageEvent {
    const cost = computeCost(spec, usage);
    const full = {
      input: usage.input,
      output: usage.output,
      ...(usage.cache_read !== undefined ? { cache_read: usage.cache_read } : {}),
      ...(usage.cache_write !== undefined ? { cache_write: usage.cache_write } : {}),
      ...(cost !== undefined ? { cost } : { cost_unknown: true }),
      context_tokens: usage.input + (usage.cache_read ?? 0) + (usage.cache_write ?? 0) + usage.output,
      model: spec.id,
    };
    this.lastUsage = { message_id: messageId, usage: full };
    return { type: "usage", ...full };
  }

  contextTokens(): number {
    return contextTokens(this.deps.session.liveWindow().messages, this.lastUsage);
  }

  /** Cancels the run in progress, if any; it ends without writing anything. */
  abort(): void {
    this.running?.abort();
  }

  /** Default tier: once idle, above `reserve_ratio` of the context window. */
  async betweenTurns(): Promise<void> {
    if (!this.config.enabled) return;
    const limit = this.deps.models.current.context_window * this.config.reserve_ratio;
    if (this.contextTokens() < limit) return;
    this.reportFailure(await this.run(this.config.keep_recent_tokens));
  }

  /** Emergency tier: at an iteration boundary when the next call would overflow. */
  async beforeProviderCall(signal: AbortSignal): Promise<void> {
    if (!this.config.enabled) return;
    if (this.contextTokens() < this.deps.models.current.context_window) return;
    this.reportFailure(await this.run(this.config.keep_recent_tokens, true, signal));
  }

  /** The provider said the context is too long: compact regardless of our estimate. */
  async afterOverflow(signal: AbortSignal): Promise<boolean> {
    const outcome = await this.run(this.config.keep_recent_tokens, true, signal);
    return "compacted" in outcome && outcome.compacted;
  }

  /**
   * Manual compaction (session_op); bypasses `enabled` and the threshold. The caller ends
   * the `compacting` status with `release()` after its response is out (docs/protocol.md §10.1).
   */
  async manual(keepRecentTokens: number | undefined): Promise<ManualCompaction> {
    const release = () => this.deps.setCompacting(false);
    try {
      const outcome = await this.run(keepRecentTokens ?? this.config.keep_recent_tokens, false);
      return { outcome, release };
    } catch (err) {
      release();
      throw err;
    }
  }

  /** Automatic tiers have no response to carry an error: it becomes a non-fatal event. */
  private reportFailure(outcome: CompactResult): void {
    if ("error" in outcome && !outcome.aborted)
      this.deps.emit({ type: "error", ...outcome.error, fatal: false });
  }

  private async run(
    keepRecentTokens: number,
    releaseStatus = true,
    turn?: AbortSignal,
  ): Promise<CompactResult> {
    const abort = new AbortController();
    const onTurnAbort = () => abort.abort();
    turn?.addEventListener("abort", onTurnAbort, { once: true });
    this.running = abort;
    this.deps.setCompacting(true);
    try {
      const outcome = await compactSession(this.deps.session, {
        keepRecentTokens,
        signal: abort.signal,
        ...(this.config.summarizer === "model" ? { summarizer: this.summarizer(abort.signal) } : {}),
      });
      if ("compacted" in outcome && outcome.compacted) {
        this.lastUsage = undefined; // the usage mark no longer describes the window
        this.deps.emit(this.compactionEvent(outcome));
      }
      return outcome;
    } finally {
      turn?.removeEventListener("abort", onTurnAbort);
      if (this.running === abort) this.running = undefined;
      if (releaseStatus) this.deps.setCompacting(false);
    }
  }

  private summarizer(signal: AbortSignal) {
    return withDeterministicFallback(modelSummarizer(this.deps.models, signal), (reason) => {
      if (signal.aborted) return; // an abort is not a summarizer failure
      this.deps.emit({
        type: "error",
        code: "PROVIDER_ERROR",
        message: `compaction: the model summarizer failed, the deterministic digest was used: ${reason}`,
        fatal: false,
      });
    });
  }

  /** The event carries the new head of the window, so a client's snapshot follows it exactly. */
  private compactionEvent(outcome: Extract<CompactResult, { compacted: true }>): UnsequencedAgentEvent {
    const [summary, firstKept] = this.deps.session.liveWindow().messages;
    return {
      type: "compaction",
      index: outcome.index,
      tokens_before: outcome.tokens_before,
      tokens_after: outcome.tokens_after,
      first_kept_entry_id: outcome.first_kept_entry_id,
      message_range: outcome.message_range,
      ...(summary ? { summary_message: summary } : {}),
      ...(firstKept ? { first_kept_message_id: firstKept.id } : {}),
    };
  }
}
