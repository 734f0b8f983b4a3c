/**
 * An agent's spending against its limits (docs/usage.md, protocol-additions §22). The runtime
 * owns the model loop, so it enforces every limit at the provider boundary: its own budget
 * (`--budget-usd`, `agent.create`, `set_budget`, recorded in the session) and the ones the
 * daemon owns and tells it about (`budget_limits`: the daily cap, a subagent job's budget).
 * A limit is spent once the priced calls reach it; the call that crosses it finishes, the next
 * one does not start. Unpriced calls cannot count: their cost is unknown.
 */

import type { BudgetScope, BudgetState, ExternalBudget } from "../../types/budget.ts";
import type { SessionEntry } from "../../types/session-entries.ts";
import type { WireError } from "../../wire/errors.ts";

export class AgentBudget {
  private limits: ExternalBudget[] = [];

  constructor(
    private budget: number | null,
    private spent: number,
  ) {}

  /** The budget the session last recorded and what its priced calls cost. */
  static fromSession(entries: readonly SessionEntry[]): { budget: number | null | undefined; spent: number } {
    let budget: number | null | undefined;
    let spent = 0;
    for (const entry of entries) {
      if (entry.type === "budget_change") budget = entry.budget_usd;
      else if (entry.type === "usage" && entry.cost_usd !== null) spent += entry.cost_usd;
    }
    return { budget, spent };
  }

  get budgetUsd(): number | null {
    return this.budget;
  }

  get spentUsd(): number {
    return this.spent;
  }

  state(): BudgetState {
    const exceeded = this.exceeded();
    return {
      budget_usd: this.budget,
      spent_usd: this.spent,
      ...(exceeded !== undefined ? { exceeded } : {}),
    };
  }

  /** One provider call's cost: against the agent's budget and what is left of the daemon's limits. */
  record(cost: number | undefined): void {
    if (cost === undefined) return;
    this.spent += cost;
    this.limits = this.limits.map((l) => ({ ...l, remaining_usd: l.remaining_usd - cost }));
  }

  setBudget(budget: number | null): void {
    this.budget = budget;
  }

  setLimits(limits: ExternalBudget[]): void {
    this.limits = limits;
  }

  /** The first spent limit, if any: no provider call starts and no prompt is taken while one is. */
  exceeded(): { scope: BudgetScope; message: string } | undefined {
    if (this.budget !== null && this.spent >= this.budget)
      return {
        scope: "agent",
        message: `the agent's budget of ${usd(this.budget)} is spent (${usd(this.spent)}); raise it with set_budget`,
      };
    const spent = this.limits.find((l) => l.remaining_usd <= 0);
    if (spent !== undefined) return { scope: spent.scope, message: `${spent.label} is spent` };
    return undefined;
  }

  refusal(): WireError | undefined {
    const exceeded = this.exceeded();
    return exceeded && { code: "BUDGET_EXCEEDED", message: exceeded.message };
  }
}

export function usd(amount: number): string {
  return amount >= 1 || amount === 0 ? `$${amount.toFixed(2)}` : `$${amount.toFixed(4)}`;
}
