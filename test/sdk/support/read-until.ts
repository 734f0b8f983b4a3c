/** Reads an async iterator until `pred` matches; returns everything read (into `into`). */
export async function readUntil<T>(
  it: AsyncIterator<T>,
  pred: (item: T) => boolean,
  into: T[] = [],
): Promise<T[]> {
  for (;;) {
    const next = await it.next();
    if (next.done)
      throw new Error(`stream ended before the awaited item; got ${JSON.stringify(into.slice(-5))}`);
    into.push(next.value);
    if (pred(next.value)) return into;
  }
}
