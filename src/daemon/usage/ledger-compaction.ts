/**
 * Rolls the ledger's days before `beforeDay` into the daily totals (cost-ledger.ts explains the
 * crash order): daily.json first, naming the last day it now holds, then the ledger rewritten
 * with the lines that remain. Each step is atomic (temp + rename).
 */
import { atomicWriteFileSync } from "../../support/atomic-write.ts";
import type { LedgerEntry } from "../../types/usage.ts";
import { type CostLedger, dayOf } from "./cost-ledger.ts";
import { type DailyRow, readDailyTotals, writeDailyTotals } from "./daily-totals.ts";

export function compactLedger(ledger: CostLedger, beforeDay: string): { rolled: number } {
  const daily = readDailyTotals(ledger.home);
  const entries = ledger.entries(daily);
  const old = entries.filter((e) => dayOf(e.ts) < beforeDay);
  if (old.length === 0) return { rolled: 0 };
  const rows = new Map<string, DailyRow>(daily.rows.map((r) => [rowKey(r), r]));
  for (const entry of old) addTo(rows, entry);
  const lastDay =
    old
      .map((e) => dayOf(e.ts))
      .sort()
      .at(-1) ?? beforeDay;
  const through =
    daily.compacted_through !== null && daily.compacted_through > lastDay ? daily.compacted_through : lastDay;
  writeDailyTotals(ledger.home, { version: 1, compacted_through: through, rows: [...rows.values()] });
  const kept = entries.filter((e) => dayOf(e.ts) > through);
  ledger.reopen();
  atomicWriteFileSync(ledger.path, kept.map((e) => `${JSON.stringify(e)}\n`).join(""));
  return { rolled: old.length };
}

function rowKey(r: Pick<DailyRow, "day" | "agent_id" | "model" | "workspace" | "job_id">): string {
  return JSON.stringify([r.day, r.agent_id, r.model, r.workspace, r.job_id ?? null]);
}

function addTo(rows: Map<string, DailyRow>, e: LedgerEntry): void {
  const key = { day: dayOf(e.ts), agent_id: e.agent_id, model: e.model, workspace: e.workspace };
  const withJob = e.job_id !== undefined ? { ...key, job_id: e.job_id } : key;
  const k = rowKey(withJob);
  const row = rows.get(k) ?? { ...withJob, calls: 0, input: 0, output: 0, cost_usd: null, unpriced_calls: 0 };
  row.calls += 1;
  row.input += e.input;
  row.output += e.output;
  if (e.cost_usd === null) row.unpriced_calls += 1;
  else row.cost_usd = (row.cost_usd ?? 0) + e.cost_usd;
  rows.set(k, row);
}
