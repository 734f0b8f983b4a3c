/** Token and cost figures as the agent list and header show them. */
import type { Usage } from "../../../../src/types/agent-state.ts";
import type { BudgetState } from "../../../../src/types/budget.ts";

export function tokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export function cost(usd: number): string {
  if (usd === 0) return "$0.00";
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  return usd < 0.0001 ? "<$0.0001" : `$${usd.toFixed(4)}`;
}

export function usageLabel(usage: Usage | undefined): string | undefined {
  if (usage === undefined || (usage.input === 0 && usage.output === 0)) return undefined;
  const parts = [`${tokens(usage.input)} in · ${tokens(usage.output)} out`];
  // An unpriced model's cost is unknown, never shown as $0.
  if (usage.cost_unknown === true)
    parts.push(usage.cost !== undefined && usage.cost > 0 ? `${cost(usage.cost)} + unknown` : "cost unknown");
  else if (usage.cost !== undefined && usage.cost > 0) parts.push(cost(usage.cost));
  return parts.join(" · ");
}

/** The agent's budget as the header shows it; undefined with no budget and no spent limit. */
export function budgetLabel(budget: BudgetState | undefined): string | undefined {
  if (budget === undefined) return undefined;
  if (budget.exceeded !== undefined) return `Budget spent: ${budget.exceeded.message}`;
  if (budget.budget_usd === null) return undefined;
  return `Budget ${cost(budget.spent_usd)} of ${cost(budget.budget_usd)}`;
}
