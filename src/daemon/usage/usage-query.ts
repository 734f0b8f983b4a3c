/**
 * `daemon.usage` and `shard usage` without a daemon: the ledger's calls since a time, grouped by
 * agent, model, job, workspace or day. Compacted days count whole from the day `since` falls in.
 * A group whose every call was unpriced has a null cost: unknown, never 0.
 */
import type { DaemonUsageResult, UsageGrouping, UsageRow, UsageTotals } from "../../types/usage.ts";
import { type CostLedger, dayOf } from "./cost-ledger.ts";
import { readDailyTotals } from "./daily-totals.ts";

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `7d` → epoch ms 7 days before `now`; a number is taken as epoch ms. */
export function sinceMs(since: string | number | undefined, now: number): number | undefined {
  if (since === undefined) return now - UNIT_MS.d;
  if (typeof since === "number") return since;
  const match = /^([0-9]+)([mhd])$/.exec(since);
  if (!match) return undefined;
  const unit = match[2];
  if (unit !== "m" && unit !== "h" && unit !== "d") return undefined;
  return now - Number(match[1]) * UNIT_MS[unit];
}

interface Call {
  day: string;
  agent_id: string;
  model: string;
  workspace: string;
  job_id?: string | undefined;
  totals: UsageTotals;
}

export function queryUsage(
  ledger: CostLedger,
  since: number,
  by: UsageGrouping,
  label: (agentId: string) => string | undefined,
): DaemonUsageResult {
  const daily = readDailyTotals(ledger.home);
  const fromDay = dayOf(since);
  const calls: Call[] = [];
  for (const row of daily.rows) {
    if (row.day < fromDay) continue;
    const { calls: n, input, output, cost_usd, unpriced_calls } = row;
    calls.push({ ...row, totals: { calls: n, input, output, cost_usd, unpriced_calls } });
  }
  for (const e of ledger.entries(daily)) {
    if (e.ts < since) continue;
    calls.push({
      day: dayOf(e.ts),
      agent_id: e.agent_id,
      model: e.model,
      workspace: e.workspace,
      job_id: e.job_id,
      totals: {
        calls: 1,
        input: e.input,
        output: e.output,
        cost_usd: e.cost_usd,
        unpriced_calls: e.cost_usd === null ? 1 : 0,
      },
    });
  }
  const groups = new Map<string, UsageTotals>();
  const total = emptyTotals();
  for (const call of calls) {
    const key = keyOf(call, by);
    const sum = groups.get(key) ?? emptyTotals();
    add(sum, call.totals);
    groups.set(key, sum);
    add(total, call.totals);
  }
  const rows: UsageRow[] = [...groups].map(([key, t]) => {
    const name = by === "agent" ? label(key) : undefined;
    return { key, ...(name !== undefined ? { label: name } : {}), ...t };
  });
  rows.sort((a, b) => (b.cost_usd ?? -1) - (a.cost_usd ?? -1) || a.key.localeCompare(b.key));
  return { since, by, rows, total };
}

/** What the calls of one UTC day cost (the daily cap's measure). */
export function spentOnDay(ledger: CostLedger, day: string): number {
  let spent = 0;
  for (const e of ledger.entries()) if (dayOf(e.ts) === day && e.cost_usd !== null) spent += e.cost_usd;
  return spent;
}

/** What each job's calls cost, over the whole ledger (compacted days included). */
export function spentPerJob(ledger: CostLedger): Map<string, number> {
  const daily = readDailyTotals(ledger.home);
  const spent = new Map<string, number>();
  for (const r of daily.rows)
    if (r.job_id !== undefined && r.cost_usd !== null)
      spent.set(r.job_id, (spent.get(r.job_id) ?? 0) + r.cost_usd);
  for (const e of ledger.entries(daily))
    if (e.job_id !== undefined && e.cost_usd !== null)
      spent.set(e.job_id, (spent.get(e.job_id) ?? 0) + e.cost_usd);
  return spent;
}

function keyOf(call: Call, by: UsageGrouping): string {
  switch (by) {
    case "agent":
      return call.agent_id;
    case "model":
      return call.model;
    case "job":
      return call.job_id ?? "-";
    case "workspace":
      return call.workspace;
    case "day":
      return call.day;
  }
}

function emptyTotals(): UsageTotals {
  return { calls: 0, input: 0, output: 0, cost_usd: null, unpriced_calls: 0 };
}

function add(sum: UsageTotals, t: UsageTotals): void {
  sum.calls += t.calls;
  sum.input += t.input;
  sum.output += t.output;
  sum.unpriced_calls += t.unpriced_calls;
  if (t.cost_usd !== null) sum.cost_usd = (sum.cost_usd ?? 0) + t.cost_usd;
}
