/** USD cost of one provider call from the catalog's per-million-token prices. */
import type { ModelSpec, ProviderUsage } from "../contracts/provider.ts";

/**
 * `usage.input` is the uncached input (every provider normalizes to that); cache reads and
 * writes are priced separately and fall back to the input price when the catalog has none.
 * A model without a price has an unknown cost (`undefined`), never 0.
 */
export function computeCost(spec: Pick<ModelSpec, "cost">, usage: ProviderUsage): number | undefined {
  const { cost } = spec;
  if (cost === undefined) return undefined;
  const cacheRead = usage.cache_read ?? 0;
  const cacheWrite = usage.cache_write ?? 0;
  const total =
    usage.input * cost.input +
    usage.output * cost.output +
    cacheRead * (cost.cache_read ?? cost.input) +
    cacheWrite * (cost.cache_write ?? cost.input);
  return total / 1_000_000;
}
