/**
 * Failed-attempt limiter: at most `maxFailures` failures in any `windowMs`; past that it is
 * locked until the oldest failure leaves the window. It keeps at most `maxFailures` timestamps:
 * memory stays bounded whatever the attacker sends. Which codes a lock refuses is decided
 * by the caller (./lock-episode.ts), not here.
 */
import type { Clock } from "./clock.ts";

export class AttemptLimiter {
  private failures: number[] = [];

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  /** Whether attempts are checked as usual now (the limit is not reached). */
  allows(): boolean {
    this.prune();
    return this.failures.length < this.maxFailures;
  }

  /** Records a failure (none while locked). True if this one began a lock. */
  recordFailure(): boolean {
    if (!this.allows()) return false;
    this.failures.push(this.clock());
    return !this.allows();
  }

  /** Milliseconds until the lock ends (0 when not locked). */
  retryAfterMs(): number {
    if (this.allows()) return 0;
    return Math.max(0, (this.failures[0] ?? 0) + this.windowMs - this.clock());
  }

  private prune(): void {
    const horizon = this.clock() - this.windowMs;
    while (this.failures.length > 0 && (this.failures[0] ?? 0) <= horizon) this.failures.shift();
  }
}
