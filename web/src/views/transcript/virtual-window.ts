/**
 * The arithmetic of the virtualized transcript: rows have measured (or estimated) heights,
 * `offsets[i]` is where row i starts and `offsets[n]` the total; the rows drawn are those that
 * meet the viewport widened by an overscan on both sides.
 */

export interface Range {
  start: number;
  /** Exclusive. */
  end: number;
}

export function prefixOffsets(heights: readonly number[]): Float64Array {
  const offsets = new Float64Array(heights.length + 1);
  for (let i = 0; i < heights.length; i++) offsets[i + 1] = (offsets[i] ?? 0) + (heights[i] ?? 0);
  return offsets;
}

/** The rows meeting [top - overscan, top + viewport + overscan). Pinned: the last screenful. */
export function visibleRange(
  offsets: Float64Array,
  scrollTop: number,
  viewport: number,
  overscan: number,
  pinned: boolean,
): Range {
  const count = offsets.length - 1;
  if (count <= 0) return { start: 0, end: 0 };
  const total = offsets[count] ?? 0;
  const top = pinned ? Math.max(0, total - viewport) : Math.max(0, scrollTop);
  const start = rowAt(offsets, top - overscan);
  const end = Math.min(count, rowAt(offsets, top + viewport + overscan) + 1);
  return { start, end: Math.max(end, start + 1) };
}

/** The row that contains position `y` (clamped to the first and last). */
export function rowAt(offsets: Float64Array, y: number): number {
  const count = offsets.length - 1;
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((offsets[mid] ?? 0) <= y) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}
