/**
 * One attack on the enrollment codes, from its first lock for as long as failures keep coming
 * (from any source) less than a window apart. Every lock of the episode refuses the same codes:
 * those minted before its first lock. A lock that merely renews (the attacker sends a wrong code
 * each time the last one leaves the window, from one address or spread over many) never takes
 * a later mark, so a code the owner mints during the attack works for its whole lifetime.
 * Without this, each renewed lock would refuse every code minted until then, and a code would
 * have to be redeemed within seconds of minting.
 */
import type { Clock } from "./clock.ts";

export class LockEpisode {
  private lastFailureAt: number | undefined;
  /** The minting sequence number at the episode's first lock; undefined before that lock. */
  private mark: number | undefined;

  constructor(
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  /** A counted failure: it goes on with the episode, or after a quiet window begins a new one. */
  recordFailure(): void {
    const now = this.clock();
    if (!this.ongoing(now)) this.mark = undefined;
    this.lastFailureAt = now;
  }

  /** A lock began while `minted` codes had been minted; only the episode's first lock sets the mark. */
  recordLock(minted: number): void {
    this.mark ??= minted;
  }

  /** While the episode lasts and has locked: codes with a sequence number up to this are refused. */
  lockMark(): number | undefined {
    return this.ongoing(this.clock()) ? this.mark : undefined;
  }

  /** A lock ends at most a window after the last counted failure, so one in force means this is true. */
  private ongoing(now: number): boolean {
    return this.lastFailureAt !== undefined && now - this.lastFailureAt < this.windowMs;
  }
}
