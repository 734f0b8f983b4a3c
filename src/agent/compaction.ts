/**
 * Compaction tiers for one runtime (ARCHITECTURE §12, PROTOCOL §9.2/§9.4): manual
 * (`session_op compact`), between turns above the reserve threshold, and mid-turn at an
 * iteration boundary once the window is full. Every run shows `status compacting` and, on
 * success, one `compaction` event.
 */
import type { ModelSpec, ProviderUsage } from "../contracts/provider.ts";
import type { SessionStore } from "../contracts/session-store.ts";
import { computeCost } from "../providers/cost.ts";
import { type CompactResult, compactSession } from "../session/compaction/compact-session.ts";
import { type CompactionConfig, loadCompactionConfig } from "../session/compaction/compaction-config.ts";
import { withDeterministicFallback } from "../session/compaction/summarizer.ts";
import { contextTokens, type UsageMark } from "../session/compaction/token-estimate.ts";
import type { Usage } from "../types/shared.ts";
import { modelSummarizer } from "./model-summarizer.ts";
import type { OutboundEvent } from "./outbox.ts";
import type { AgentRuntime } from "./runtime.ts";

export class Compaction {
  readonly config: CompactionConfig;
  readonly warnings: string[] = [];
  private lastUsage: UsageMark | undefined;
  private runtime: AgentRuntime | undefined;

  constructor(
    home: string,
    private readonly session: () => SessionStore,
    private readonly model: () => ModelSpec,
  ) {
    const loaded = loadCompactionConfig(home);
    this.config = loaded.config;
    this.warnings.push(...loaded.warnings);
  }

  bind(runtime: AgentRuntime): void {
    this.runtime = runtime;
  }

  /** Builds the `usage` event for one provider call and remembers it for context accounting. */
  recordUsage(usage: ProviderUsage, spec: ModelSpec, messageId: string): OutboundEvent {
    const full: Usage = {
      input: usage.input,
      output: usage.output,
      ...(usage.cache_read !== undefined ? { cache_read: usage.cache_read } : {}),
      ...(usage.cache_write !== undefined ? { cache_write: usage.cache_write } : {}),
      cost: computeCost(spec, usage),
      context_tokens: usage.input + (usage.cache_read ?? 0) + (usage.cache_write ?? 0) + usage.output,
      model: spec.id,
    };
    this.lastUsage = { message_id: messageId, usage: full };
    return { type: "usage", ...full };
  }

  contextTokens(): number {
    return contextTokens(this.session().liveWindow().messages, this.lastUsage);
  }

  /** Default tier: once idle, above `reserve_ratio` of the context window. */
  async betweenTurns(): Promise<void> {
    if (!this.config.enabled) return;
    const limit = this.model().context_window * this.config.reserve_ratio;
    if (this.contextTokens() < limit) return;
    this.reportFailure(await this.run(this.config.keep_recent_tokens));
  }

  /** Emergency tier: at an iteration boundary when the next call would overflow. */
  async beforeProviderCall(_signal: AbortSignal): Promise<void> {
    if (!this.config.enabled) return;
    if (this.contextTokens() < this.model().context_window) return;
    this.reportFailure(await this.run(this.config.keep_recent_tokens));
  }

  /** Automatic tiers have no response to carry an error: it becomes a non-fatal event. */
  private reportFailure(outcome: CompactResult): void {
    if ("error" in outcome) {
      this.runtime?.emit({ type: "error", ...outcome.error, fatal: false });
    }
  }

  /** The provider said the context is too long: compact regardless of our estimate. */
  async afterOverflow(_signal: AbortSignal): Promise<boolean> {
    const outcome = await this.run(this.config.keep_recent_tokens);
    return "compacted" in outcome && outcome.compacted;
  }

  /**
   * Manual compaction (session_op); bypasses `enabled` and the threshold. The caller ends
   * the `compacting` status with `release()` after its response is out (PROTOCOL §9.2).
   */
  async manual(
    keepRecentTokens: number | undefined,
  ): Promise<{ outcome: CompactResult; release: () => void }> {
    const release = () => this.runtime?.state.setCompacting(false);
    try {
      const outcome = await this.run(keepRecentTokens ?? this.config.keep_recent_tokens, false);
      return { outcome, release };
    } catch (err) {
      release();
      throw err;
    }
  }

  private async run(keepRecentTokens: number, releaseStatus = true): Promise<CompactResult> {
    const runtime = this.runtime;
    runtime?.state.setCompacting(true);
    try {
      const summarizer =
        this.config.summarizer === "model" && runtime
          ? withDeterministicFallback(modelSummarizer(runtime.models), (reason) =>
              this.warnings.push(`model summarizer failed, used the deterministic digest: ${reason}`),
            )
          : undefined;
      const outcome = await compactSession(this.session(), {
        keepRecentTokens,
        ...(summarizer ? { summarizer } : {}),
      });
      if ("compacted" in outcome && outcome.compacted) {
        this.lastUsage = undefined; // the usage mark no longer describes the window
        runtime?.emit({
          type: "compaction",
          index: outcome.index,
          tokens_before: outcome.tokens_before,
          tokens_after: outcome.tokens_after,
          first_kept_entry_id: outcome.first_kept_entry_id,
          message_range: outcome.message_range,
        });
      }
      return outcome;
    } finally {
      if (releaseStatus) runtime?.state.setCompacting(false);
    }
  }
}
