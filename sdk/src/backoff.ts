/** Reconnect delays (ARCHITECTURE §13, PROTOCOL §2.2): 1 s, 2 s, 4 s … capped at 30 s. */
export interface BackoffOptions {
  /** First delay (default 1000 ms). */
  initialDelayMs?: number;
  /** Cap (default 30000 ms). */
  maxDelayMs?: number;
}

export const INITIAL_DELAY_MS = 1000;
export const MAX_DELAY_MS = 30_000;

/** The delay before reconnect attempt `attempt` (0-based); reset to 0 once connected. */
export function reconnectDelayMs(attempt: number, options: BackoffOptions = {}): number {
  const first = options.initialDelayMs ?? INITIAL_DELAY_MS;
  const cap = options.maxDelayMs ?? MAX_DELAY_MS;
  return Math.min(cap, first * 2 ** Math.max(0, Math.min(attempt, 30)));
}
