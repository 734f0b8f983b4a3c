/**
 * The usage page's figures (docs/usage.md): a group's cost as text, where an unpriced call makes
 * it "unknown" or "… + unknown" (never $0), and the days a period covers, so the plot shows a
 * day without calls as an empty bar rather than leaving it out.
 */
import type { UsageRow, UsageTotals } from "../../../../src/types/usage.ts";
import { cost, tokens } from "../agents/usage-label.ts";

export type Period = "1d" | "7d" | "30d";
export const PERIODS: readonly Period[] = ["1d", "7d", "30d"];

export function costText(t: Pick<UsageTotals, "calls" | "cost_usd" | "unpriced_calls">): string {
  if (t.unpriced_calls > 0) return t.cost_usd === null ? "unknown" : `${cost(t.cost_usd)} + unknown`;
  return cost(t.cost_usd ?? 0);
}

export function tokensText(t: Pick<UsageTotals, "input" | "output">): string {
  return `${tokens(t.input)} in · ${tokens(t.output)} out`;
}

const DAY_MS = 86_400_000;

function dayKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export type DayFigure = { day: string; row: UsageRow | undefined };

/** Every UTC day from the one `since` falls in to today, oldest first, with its row if it had calls. */
export function daysOf(since: number, now: number, rows: readonly UsageRow[]): DayFigure[] {
  const byDay = new Map(rows.map((r) => [r.key, r]));
  const days: DayFigure[] = [];
  // Bounded: a period is at most 30 days, and a malformed `since` cannot make this loop long.
  const first = Math.max(Math.floor(since / DAY_MS), Math.floor(now / DAY_MS) - 400);
  for (let d = first; d <= Math.floor(now / DAY_MS); d++) {
    const day = dayKey(d * DAY_MS);
    days.push({ day, row: byDay.get(day) });
  }
  return days;
}

/** A bar's share of the largest priced cost, 0..1 (0 for an unknown or zero cost). */
export function share(value: number | null, max: number): number {
  return value === null || max <= 0 ? 0 : value / max;
}

export function maxCost(rows: readonly { cost_usd: number | null }[]): number {
  return rows.reduce((m, r) => Math.max(m, r.cost_usd ?? 0), 0);
}
