/**
 * One-time enrollment codes (ARCHITECTURE §14.2): minted by the daemon for its terminal,
 * single use, 10 minutes, failed redemptions rate-limited. Only hashes are held, in memory:
 * a code is never written to disk or a log, and a daemon restart forgets every open code.
 */
import { AttemptLimiter } from "./attempt-limiter.ts";
import type { Clock } from "./clock.ts";
import { hashSecret, newSecret, SECRET_PATTERN } from "./secrets.ts";

export const ENROLLMENT_CODE_TTL_MS = 10 * 60 * 1000;
/** Outstanding codes kept; minting past this drops the oldest (memory stays bounded). */
export const MAX_OPEN_CODES = 16;
export const MAX_FAILED_REDEMPTIONS = 5;
export const FAILED_REDEMPTION_WINDOW_MS = 60 * 1000;

export type Redemption = "ok" | "invalid" | "rate_limited";

export class EnrollmentCodes {
  /** hash → expiry (ms). Insertion order is minting order. */
  private readonly open = new Map<string, number>();
  private readonly limiter: AttemptLimiter;

  constructor(private readonly clock: Clock) {
    this.limiter = new AttemptLimiter(MAX_FAILED_REDEMPTIONS, FAILED_REDEMPTION_WINDOW_MS, clock);
  }

  mint(): { code: string; expires_at: number } {
    this.prune();
    while (this.open.size >= MAX_OPEN_CODES) {
      const oldest = this.open.keys().next().value;
      if (oldest === undefined) break;
      this.open.delete(oldest);
    }
    const code = newSecret();
    const expires_at = this.clock() + ENROLLMENT_CODE_TTL_MS;
    this.open.set(hashSecret(code), expires_at);
    return { code, expires_at };
  }

  /** Checks and consumes a code: a code that worked once never works again. */
  redeem(code: string): Redemption {
    if (!this.limiter.allows()) return "rate_limited";
    this.prune();
    const hash = SECRET_PATTERN.test(code) ? hashSecret(code) : undefined;
    if (hash === undefined || !this.open.delete(hash)) {
      this.limiter.recordFailure();
      return "invalid";
    }
    return "ok";
  }

  /** Whether redemptions are refused right now (the failed-attempt limit is reached). */
  locked(): boolean {
    return !this.limiter.allows();
  }

  retryAfterMs(): number {
    return this.limiter.retryAfterMs();
  }

  private prune(): void {
    const now = this.clock();
    for (const [hash, expiresAt] of this.open) if (expiresAt <= now) this.open.delete(hash);
  }
}
