/**
 * `$SHARD_HOME/usage/daily.json`: the compacted past of the cost ledger (cost-ledger.ts), per
 * day, agent, model, job and workspace. Replaced atomically; a file that cannot be read is
 * reported by the caller and treated as empty, never overwritten until the next compaction.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Static, Type } from "@sinclair/typebox";
import { atomicWriteFileSync } from "../../support/atomic-write.ts";
import { UsageTotalsSchema } from "../../types/usage.ts";
import { schemaCheck } from "../../wire/schema-check.ts";

const DailyRowSchema = Type.Object({
  day: Type.String({ pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$" }),
  agent_id: Type.String({ minLength: 1 }),
  model: Type.String({ minLength: 1 }),
  workspace: Type.String({ minLength: 1 }),
  job_id: Type.Optional(Type.String({ minLength: 1 })),
  ...UsageTotalsSchema.properties,
});
export type DailyRow = Static<typeof DailyRowSchema>;

const DailyTotalsSchema = Type.Object({
  version: Type.Literal(1),
  /** The last day rolled in: ledger lines of this day or before are already counted here. */
  compacted_through: Type.Union([Type.String(), Type.Null()]),
  rows: Type.Array(DailyRowSchema),
});
export type DailyTotals = Static<typeof DailyTotalsSchema>;

const check = schemaCheck(DailyTotalsSchema);

export function dailyTotalsPath(home: string): string {
  return join(home, "usage", "daily.json");
}

export function readDailyTotals(home: string): DailyTotals {
  const path = dailyTotalsPath(home);
  const empty: DailyTotals = { version: 1, compacted_through: null, rows: [] };
  if (!existsSync(path)) return empty;
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return check.check(value) ? value : empty;
  } catch {
    return empty;
  }
}

export function writeDailyTotals(home: string, totals: DailyTotals): void {
  atomicWriteFileSync(dailyTotalsPath(home), `${JSON.stringify(totals)}\n`);
}
