/** Reconnect delays (ARCHITECTURE §13): 1 s, 2 s, 4 s … capped at 30 s; reset once connected. */
export const FIRST_DELAY_MS = 1000;
export const MAX_DELAY_MS = 30_000;

export function reconnectDelayMs(attempt: number): number {
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, attempt));
}
