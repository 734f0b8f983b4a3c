/**
 * One-time enrollment codes (docs/architecture.md §10.2): minted by the daemon for its terminal,
 * single use, 10 minutes, failed redemptions rate-limited. Only hashes are held, in memory:
 * a code is never written to disk or a log, and a daemon restart forgets every open code.
 *
 * Rate limit (docs/auth.md): 5 failures a minute from one source (the peer address) lock that
 * source, 20 from all sources lock everyone. A lock refuses, unchecked, every code that was
 * open when the attack's first lock began, right or wrong, so guessing faster gains nothing.
 * It does not refuse a code minted after that (`shard auth enroll` on the daemon's machine),
 * however long the attack keeps renewing the lock (./lock-episode.ts): whoever floods the port
 * with wrong codes — another local user shares 127.0.0.1 with the browser — cannot keep the
 * machine's owner from enrolling. Attempts refused by a lock are not counted, so a locked
 * source cannot push the others into the global lock.
 */
import { AttemptLimiter } from "./attempt-limiter.ts";
import type { Clock } from "./clock.ts";
import { LockEpisode } from "./lock-episode.ts";
import { hashSecret, newSecret, SECRET_PATTERN } from "./secrets.ts";

export const ENROLLMENT_CODE_TTL_MS = 10 * 60 * 1000;
/** Outstanding codes kept; minting past this drops the oldest (memory stays bounded). */
export const MAX_OPEN_CODES = 16;
/** Failed redemptions per source (peer address) in the window before that source is locked. */
export const MAX_FAILED_REDEMPTIONS = 5;
/** Failed redemptions from all sources together in the window before every source is locked. */
export const MAX_FAILED_REDEMPTIONS_GLOBAL = 20;
export const FAILED_REDEMPTION_WINDOW_MS = 60 * 1000;
/** Sources whose failures are remembered; past this the oldest is forgotten (the global lock still counts). */
export const MAX_TRACKED_SOURCES = 64;

export type Redemption<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      reason: "invalid" | "rate_limited";
      /** Set on the failure that began a lock: which one. */
      locked?: "source" | "global";
    };

interface OpenCode {
  expiresAt: number;
  /** Minting order: tells a code minted after an attack's first lock from one open before it. */
  seq: number;
}

export class EnrollmentCodes {
  /** hash → code. Insertion order is minting order. */
  private readonly open = new Map<string, OpenCode>();
  private minted = 0;
  private readonly global: AttemptLimiter;
  private readonly bySource = new Map<string, AttemptLimiter>();
  /** One for every source: forgetting a source (MAX_TRACKED_SOURCES) never moves the mark. */
  private readonly episode: LockEpisode;

  constructor(private readonly clock: Clock) {
    this.global = new AttemptLimiter(MAX_FAILED_REDEMPTIONS_GLOBAL, FAILED_REDEMPTION_WINDOW_MS, clock);
    this.episode = new LockEpisode(FAILED_REDEMPTION_WINDOW_MS, clock);
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
    this.open.set(hashSecret(code), { expiresAt: expires_at, seq: ++this.minted });
    return { code, expires_at };
  }

  /**
   * Checks the code from `source` and, when it is good, runs `spend` (the enrollment it pays
   * for) and consumes it. If `spend` throws (the security store could not be written), the code
   * stays open and the error propagates: nobody was enrolled, so the same link may be retried.
   * Check, spend and consume run without a pause, so no other request sees the code in between.
   */
  redeem<T>(code: string, source: string, spend: () => T): Redemption<T> {
    this.prune();
    const hash = SECRET_PATTERN.test(code) ? hashSecret(code) : undefined;
    const found = hash === undefined ? undefined : this.open.get(hash);
    const locked = !this.global.allows() || this.bySource.get(source)?.allows() === false;
    if (locked) {
      // A lock in force implies an episode with a mark; were it missing, refuse every open code.
      const mark = this.episode.lockMark() ?? this.minted;
      if (found === undefined || hash === undefined || found.seq <= mark) {
        return { ok: false, reason: "rate_limited" };
      }
    } else if (found === undefined || hash === undefined) {
      this.episode.recordFailure();
      const sourceLocked = this.limiterOf(source).recordFailure();
      const globalLocked = this.global.recordFailure();
      const began = globalLocked ? "global" : sourceLocked ? "source" : undefined;
      if (began !== undefined) this.episode.recordLock(this.minted);
      return { ok: false, reason: "invalid", ...(began !== undefined ? { locked: began } : {}) };
    }
    const value = spend();
    this.open.delete(hash);
    return { ok: true, value };
  }

  /** Milliseconds until `source` is no longer locked (0 when it is not). */
  retryAfterMs(source: string): number {
    return Math.max(this.global.retryAfterMs(), this.bySource.get(source)?.retryAfterMs() ?? 0);
  }

  /** How many sources' failures are remembered (bounded by MAX_TRACKED_SOURCES). */
  trackedSources(): number {
    return this.bySource.size;
  }

  private limiterOf(source: string): AttemptLimiter {
    const known = this.bySource.get(source);
    if (known !== undefined) return known;
    while (this.bySource.size >= MAX_TRACKED_SOURCES) {
      const oldest = this.bySource.keys().next().value;
      if (oldest === undefined) break;
      this.bySource.delete(oldest);
    }
    const limiter = new AttemptLimiter(MAX_FAILED_REDEMPTIONS, FAILED_REDEMPTION_WINDOW_MS, this.clock);
    this.bySource.set(source, limiter);
    return limiter;
  }

  private prune(): void {
    const now = this.clock();
    for (const [hash, code] of this.open) if (code.expiresAt <= now) this.open.delete(hash);
  }
}
