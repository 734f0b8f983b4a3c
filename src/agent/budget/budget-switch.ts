/**
 * `set_budget` (protocol-additions §22), like `set_sandbox` (../sandbox/sandbox-switch.ts): a
 * lower budget applies at once; a higher one, or none, lets the agent spend more, so it is an
 * escalation the person allows through a `permission_request` routed like any other (with
 * nobody to answer, the broker's headless policy denies). The response says `pending`; an
 * allow shows as `budget_changed`. Every applied budget is in the session first.
 */
import type { PermissionAnswer, PermissionAsk } from "../../contracts/permission-gate.ts";
import { CHOICE_ALLOW_ONCE, CHOICE_DENY } from "../../permissions/permission-ask.ts";
import type { SetBudgetResult } from "../../types/budget.ts";
import { type AgentBudget, usd } from "./agent-budget.ts";

export interface BudgetSwitchDeps {
  budget: AgentBudget;
  ask(ask: PermissionAsk): { requestId: string; answer: Promise<PermissionAnswer> };
  cancel(requestId: string, reason: string): void;
  /** Records the budget in the session, then announces `budget_changed`. */
  applied(budget: number | null): void;
}

export class BudgetSwitch {
  /** The raise still waiting for its answer; a newer `set_budget` replaces it. */
  private waiting: string | undefined;

  constructor(private readonly deps: BudgetSwitchDeps) {}

  set(budget: number | null): SetBudgetResult {
    const current = this.deps.budget.budgetUsd;
    if (this.waiting !== undefined) {
      this.deps.cancel(this.waiting, "superseded by a newer set_budget");
      this.waiting = undefined;
    }
    if (budget === current) return { budget: this.deps.budget.state(), pending: false };
    if (budget !== null && (current === null || budget < current)) {
      this.deps.applied(budget);
      return { budget: this.deps.budget.state(), pending: false };
    }
    const { requestId, answer } = this.deps.ask(raise(current, budget, this.deps.budget.spentUsd));
    this.waiting = requestId;
    void answer.then((reply) => {
      if (this.waiting !== requestId) return;
      this.waiting = undefined;
      if (allows(reply)) this.deps.applied(budget);
    });
    return { budget: this.deps.budget.state(), pending: true, request_id: requestId };
  }
}

function raise(from: number | null, to: number | null, spent: number): PermissionAsk {
  const fromText = from === null ? "no budget" : usd(from);
  const toText = to === null ? "no budget" : usd(to);
  return {
    tool_name: "set_budget",
    input: { budget_usd: to },
    prompt: `Allow raising the agent's budget from ${fromText} to ${toText}?`,
    options: ["allow", "deny"],
    details: [
      { label: "Budget", value: `${fromText} → ${toText} (spent so far ${usd(spent)})`, format: "text" },
    ],
    choices: [
      { id: CHOICE_ALLOW_ONCE, label: `Allow: raise to ${toText}`, intent: "allow" },
      { id: CHOICE_DENY, label: `Deny: keep ${fromText}`, intent: "deny" },
    ],
  };
}

/** Only an explicit allow raises the budget; a cancel (abort, timeout, headless) keeps it. */
function allows(answer: PermissionAnswer): boolean {
  if (answer.kind === "choice") return answer.choice_id === CHOICE_ALLOW_ONCE;
  if (answer.kind === "decision") return answer.decision !== "deny";
  return false;
}
