/** The reconnect backoff every client shares (web, SDK): 1 s doubling to a 30 s cap. */
import { describe, expect, test } from "bun:test";
import { reconnectDelayMs as publicReconnectDelayMs } from "../../sdk/src/index.ts";
import { INITIAL_DELAY_MS, MAX_DELAY_MS, reconnectDelayMs } from "../../src/client/backoff.ts";

describe("reconnectDelayMs", () => {
  test("doubles from 1 s and is capped at 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20, 1000].map((n) => reconnectDelayMs(n))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 30_000,
    ]);
    expect(INITIAL_DELAY_MS).toBe(1000);
    expect(MAX_DELAY_MS).toBe(30_000);
  });

  test("a negative attempt counts as the first", () => {
    expect(reconnectDelayMs(-3)).toBe(1000);
  });

  test("its first delay and cap can be set, and the SDK exports the same function", () => {
    expect([0, 1, 2, 3].map((n) => reconnectDelayMs(n, { initialDelayMs: 20, maxDelayMs: 100 }))).toEqual([
      20, 40, 80, 100,
    ]);
    expect(publicReconnectDelayMs).toBe(reconnectDelayMs);
  });
});
