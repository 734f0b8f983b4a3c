/** The one line `shard run` ends with on a terminal: tokens, cost, time and the session to resume. */
import type { Usage } from "../types/agent-state.ts";

export class UsageTotals {
  input = 0;
  output = 0;
  cost: number | undefined;
  cost_unknown: boolean | undefined;

  add(usage: Pick<Usage, "input" | "output" | "cost" | "cost_unknown">): void {
    this.input += usage.input;
    this.output += usage.output;
    if (usage.cost !== undefined) this.cost = (this.cost ?? 0) + usage.cost;
    if (usage.cost_unknown === true) this.cost_unknown = true;
  }
}

export function runSummary(totals: UsageTotals, elapsedMs: number, sessionId: string): string {
  return `${turnSummary(totals, elapsedMs)} · session ${sessionId}`;
}

/** Tokens, cost and time of one turn: what `shard attach` prints as each turn ends. */
export function turnSummary(
  totals: Pick<Usage, "input" | "output" | "cost" | "cost_unknown">,
  elapsedMs: number,
): string {
  const tokens = `${totals.input.toLocaleString("en-US")} in · ${totals.output.toLocaleString("en-US")} out`;
  // An unpriced model's cost is unknown, never $0.
  const known =
    totals.cost === undefined
      ? ""
      : `$${totals.cost < 0.01 ? totals.cost.toFixed(4) : totals.cost.toFixed(2)}`;
  const cost =
    totals.cost_unknown === true
      ? ` · ${known === "" ? "cost unknown" : `${known} + unknown`}`
      : known === ""
        ? ""
        : ` · ${known}`;
  return `${tokens}${cost} · ${(elapsedMs / 1000).toFixed(1)} s`;
}
