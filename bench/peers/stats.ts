/** Summary statistics of repeated measurements (pure). */

export interface Summary {
  median: number;
  min: number;
  max: number;
  count: number;
}

/** Median (mean of the middle two for an even count), min and max; undefined for no values. */
export function summarize(values: readonly number[]): Summary | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1
      ? (sorted[mid] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { median, min: sorted[0] as number, max: sorted[sorted.length - 1] as number, count: sorted.length };
}
