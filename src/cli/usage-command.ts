/**
 * `shard usage [--since 1d] [--by agent|model|job|workspace|day] [--json]` (docs/usage.md): what
 * the cost ledger says was spent. Asks the running daemon (`daemon.usage`); with none running,
 * reads `$SHARD_HOME/usage/` itself. An unpriced call's cost is shown as unknown, never $0.
 */
import { Value } from "@sinclair/typebox/value";
import { CostLedger } from "../daemon/usage/cost-ledger.ts";
import { queryUsage, sinceMs } from "../daemon/usage/usage-query.ts";
import { usdText } from "../daemon/usage/usd-text.ts";
import { shardHome } from "../support/shard-home.ts";
import { terminalLine } from "../terminal/terminal-text.ts";
import {
  type DaemonUsageResult,
  type UsageGrouping,
  UsageGroupingSchema,
  type UsageTotals,
} from "../types/usage.ts";
import { requestResult } from "./daemon-request.ts";
import { DaemonStream } from "./daemon-stream.ts";
import { parseFlags, reportUsageError, UsageError } from "./flags.ts";

export const USAGE_HELP = `Usage: shard usage [--since 1d] [--by agent|model|job|workspace|day] [--json]

What the agents spent, from the cost ledger (docs/usage.md): calls, tokens and US dollars per
group, most expensive first. Asks the running daemon, or reads $SHARD_HOME/usage/ without one.
A model without a price counts as "unknown", never as $0.

  --since SPAN   30m, 12h, 7d: how far back (default 1d)
  --by GROUP     agent (default), model, job, workspace or day
  --json         print the daemon.usage result instead
`;

const OPTIONS = {
  since: { type: "string" },
  by: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export async function usageCommand(argv: string[]): Promise<number> {
  let since: string;
  let by: UsageGrouping;
  let json: boolean;
  try {
    const { values } = parseFlags(argv, OPTIONS, false);
    if (values.help) {
      process.stdout.write(USAGE_HELP);
      return 0;
    }
    since = values.since ?? "1d";
    if (sinceMs(since, Date.now()) === undefined || !/^[0-9]+[mhd]$/.test(since))
      throw new UsageError(`--since: "${since}" is not a span; use 30m, 12h or 7d`);
    const group = values.by ?? "agent";
    if (!Value.Check(UsageGroupingSchema, group))
      throw new UsageError(`--by: "${group}" is not a grouping; use agent, model, job, workspace or day`);
    by = group;
    json = values.json === true;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return reportUsageError("usage", err.message);
  }
  const home = shardHome(process.env);
  const result = await usageFrom(home, since, by);
  if (result === undefined) return 1;
  process.stdout.write(json ? `${JSON.stringify(result)}\n` : formatUsage(result));
  return 0;
}

async function usageFrom(
  home: string,
  since: string,
  by: UsageGrouping,
): Promise<DaemonUsageResult | undefined> {
  const opened = await DaemonStream.open(home);
  if (!opened.ok) {
    // No daemon: the files say the same, without the agents' names.
    const from = sinceMs(since, Date.now()) ?? 0;
    return queryUsage(new CostLedger(home), from, by, () => undefined);
  }
  const stream = opened.stream;
  try {
    return await requestResult("shard usage", (c) => stream.request(c), {
      type: "daemon.usage",
      since,
      by,
    });
  } finally {
    stream.close();
  }
}

export function costText(t: Pick<UsageTotals, "cost_usd" | "unpriced_calls">): string {
  if (t.cost_usd === null) return "unknown";
  const known = usdText(t.cost_usd);
  return t.unpriced_calls > 0 ? `${known} + unknown` : known;
}

const HEADER = ["KEY", "CALLS", "INPUT", "OUTPUT", "COST"];

export function formatUsage(result: DaemonUsageResult): string {
  const rows = result.rows.map((r) => [
    terminalLine(r.label !== undefined ? `${r.key} (${r.label})` : r.key),
    String(r.calls),
    String(r.input),
    String(r.output),
    costText(r),
  ]);
  const t = result.total;
  rows.push(["total", String(t.calls), String(t.input), String(t.output), costText(t)]);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    `${cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd()}\n`;
  const head = [HEADER, ...rows].map(line).join("");
  const cap = result.daily_budget;
  const capLine =
    cap === undefined
      ? ""
      : `daily budget: ${usdText(cap.spent_usd)} of ${usdText(cap.budget_usd)} spent today (UTC)\n`;
  return `${head}${capLine}`;
}
