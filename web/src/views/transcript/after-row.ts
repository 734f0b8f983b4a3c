/**
 * Where the transcript draws something that follows a message (a failed turn, a turn's
 * checkpoint): after the row of that message. One that follows a tool-result message drawn
 * inside its call's card goes after the nearest row before it. Those whose message left the
 * window are not drawn.
 */
import type { Message } from "../../../../src/types/messages.ts";

export function byRowAfter<T>(
  messages: readonly Message[],
  rows: readonly Message[],
  items: readonly T[] | undefined,
  afterMessageId: (item: T) => string | undefined,
): ReadonlyMap<string, T[]> {
  const byRow = new Map<string, T[]>();
  if (items === undefined || items.length === 0) return byRow;
  const shown = new Set(rows.map((m) => m.id));
  const at = new Map(messages.map((m, i) => [m.id, i]));
  for (const item of items) {
    const after = afterMessageId(item);
    let i = after === undefined ? undefined : at.get(after);
    if (i === undefined) continue;
    while (i >= 0 && !shown.has(messages[i]?.id ?? "")) i--;
    const row = messages[i]?.id;
    if (row === undefined) continue;
    byRow.set(row, [...(byRow.get(row) ?? []), item]);
  }
  return byRow;
}
