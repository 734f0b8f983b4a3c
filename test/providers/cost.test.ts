import { describe, expect, test } from "bun:test";
import { computeCost } from "../../src/providers/cost.ts";

describe("computeCost", () => {
  test("per-million prices for input, output, cache read and cache write", () => {
    const spec = { cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 } };
    const cost = computeCost(spec, {
      input: 1_000_000,
      output: 100_000,
      cache_read: 2_000_000,
      cache_write: 400_000,
    });
    expect(cost).toBeCloseTo(3 + 1.5 + 0.6 + 1.5, 10);
  });

  test("cache prices fall back to the input price", () => {
    expect(
      computeCost({ cost: { input: 2, output: 8 } }, { input: 0, output: 0, cache_read: 500_000 }),
    ).toBeCloseTo(1, 10);
  });

  test("free local models cost nothing", () => {
    expect(computeCost({ cost: { input: 0, output: 0 } }, { input: 123_456, output: 7_890 })).toBe(0);
  });

  test("a model without a price has an unknown cost, not 0", () => {
    expect(computeCost({}, { input: 123_456, output: 7_890 })).toBeUndefined();
  });
});
