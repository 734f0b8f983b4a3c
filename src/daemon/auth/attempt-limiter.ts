/**
 * Failed-attempt limiter: at most `maxFailures` failures in any `windowMs`; past that it is
 * locked until the oldest failure leaves the window. It remembers when (in code-minting order)
 * its current lock began, so codes minted after that can be told apart. It keeps at most
 * `maxFailures` timestamps: memory stays bounded whatever the attacker sends.
 */
import type { Clock } from "./clock.ts";

export class AttemptLimiter {
  private failures: number[] = [];
  private lockMark = 0;

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

  /** Records a failure; `mark` (the current minting sequence) is kept if this one locks. True if it did. */
  recordFailure(mark: number): boolean {
    if (!this.allows()) return false;
    this.failures.push(this.clock());
    if (this.allows()) return false;
    this.lockMark = mark;
    return true;
  }

  /** While locked, the minting sequence number at which the lock began; otherwise undefined. */
  lockedSince(): number | undefined {
    return this.allows() ? undefined : this.lockMark;
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
