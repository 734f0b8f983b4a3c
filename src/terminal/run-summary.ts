/** The one line `shard run` ends with on a terminal: tokens, cost, time and the session to resume. */
import type { Usage } from "../types/agent-state.ts";

export class UsageTotals {
  input = 0;
  output = 0;
  cost: number | undefined;

  add(usage: Pick<Usage, "input" | "output" | "cost">): void {
    this.input += usage.input;
    this.output += usage.output;
    if (usage.cost !== undefined) this.cost = (this.cost ?? 0) + usage.cost;
  }
}

export function runSummary(totals: UsageTotals, elapsedMs: number, sessionId: string): string {
  return `${turnSummary(totals, elapsedMs)} · session ${sessionId}`;
}

/** Tokens, cost and time of one turn: what `shard attach` prints as each turn ends. */
export function turnSummary(totals: Pick<Usage, "input" | "output" | "cost">, elapsedMs: number): string {
  const tokens = `${totals.input.toLocaleString("en-US")} in · ${totals.output.toLocaleString("en-US")} out`;
  const cost =
    totals.cost === undefined
      ? ""
      : ` · $${totals.cost < 0.01 ? totals.cost.toFixed(4) : totals.cost.toFixed(2)}`;
  return `${tokens}${cost} · ${(elapsedMs / 1000).toFixed(1)} s`;
}
