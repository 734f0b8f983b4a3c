/**
 * Failed-attempt limiter: at most `maxFailures` failures in any `windowMs`. While over the
 * limit every attempt is refused, right or wrong, so guessing gains nothing by going faster.
 * It keeps at most `maxFailures` timestamps: memory stays bounded whatever the attacker sends.
 */
import type { Clock } from "./clock.ts";

export class AttemptLimiter {
  private failures: number[] = [];

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  /** Whether an attempt may be checked now. */
  allows(): boolean {
    this.prune();
    return this.failures.length < this.maxFailures;
  }

  recordFailure(): void {
    this.prune();
    if (this.failures.length < this.maxFailures) this.failures.push(this.clock());
  }

  /** Milliseconds until the next attempt is allowed (0 when it is now). */
  retryAfterMs(): number {
    this.prune();
    if (this.failures.length < this.maxFailures) return 0;
    return Math.max(0, (this.failures[0] ?? 0) + this.windowMs - this.clock());
  }

  private prune(): void {
    const horizon = this.clock() - this.windowMs;
    while (this.failures.length > 0 && (this.failures[0] ?? 0) <= horizon) this.failures.shift();
  }
}
