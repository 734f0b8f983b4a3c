/**
 * Reconnect delays, shared by every client that reconnects (docs/protocol-additions.md §8.1):
 * 1 s, 2 s, 4 s … capped at 30 s, and back to the first delay once connected.
 */
export interface BackoffOptions {
  /** First delay (default 1000 ms). */
  initialDelayMs?: number;
  /** Cap (default 30000 ms). */
  maxDelayMs?: number;
  /**
   * Reconnect attempts after a drop before giving up for good (default: no limit). A client
   * whose server never comes back then closes with `NOT_ATTACHED` instead of waiting forever.
   */
  maxAttempts?: number;
}

export const INITIAL_DELAY_MS = 1000;
export const MAX_DELAY_MS = 30_000;

/** The delay before reconnect attempt `attempt` (0-based; a negative one counts as the first). */
export function reconnectDelayMs(attempt: number, options: BackoffOptions = {}): number {
  const first = options.initialDelayMs ?? INITIAL_DELAY_MS;
  const cap = options.maxDelayMs ?? MAX_DELAY_MS;
  return Math.min(cap, first * 2 ** Math.max(0, Math.min(attempt, 30)));
}
