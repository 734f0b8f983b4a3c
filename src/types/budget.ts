/**
 * Spending limits (docs/protocol-additions.md §22): an agent's own budget (`budget_usd` on
 * `agent.create`, `shard agent --budget-usd`, `set_budget`), and the limits the daemon tells a
 * runtime it runs under (the daily cap, its subagent job's budget).
 */
import { type Static, Type } from "@sinclair/typebox";
import { eventSeq, optionalCommandId, routingAgentId } from "./envelope.ts";

/** Which limit stopped the agent. */
export const BudgetScopeSchema = Type.Union(
  [Type.Literal("agent"), Type.Literal("daily"), Type.Literal("job")],
  {
    $id: "BudgetScope",
  },
);
export type BudgetScope = Static<typeof BudgetScopeSchema>;

/** A limit the daemon owns, as the runtime enforces it: what is left of it now. */
export const ExternalBudgetSchema = Type.Object(
  {
    scope: Type.Union([Type.Literal("daily"), Type.Literal("job")]),
    /** USD left; at or below 0 the agent starts no provider call. */
    remaining_usd: Type.Number(),
    /** What the person reads: "the daemon's daily cap of $5.00". */
    label: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { $id: "ExternalBudget" },
);
export type ExternalBudget = Static<typeof ExternalBudgetSchema>;

/** An agent's spending against its limits, in `sync` and `budget_changed`. */
export const BudgetStateSchema = Type.Object(
  {
    /** The agent's own budget in USD; null: none. */
    budget_usd: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
    /** USD its priced provider calls cost over the whole session (unpriced calls are not in it). */
    spent_usd: Type.Number({ minimum: 0 }),
    /** Set while a limit is spent: prompts are refused with BUDGET_EXCEEDED until it is raised. */
    exceeded: Type.Optional(
      Type.Object({ scope: BudgetScopeSchema, message: Type.String({ minLength: 1 }) }),
    ),
  },
  { $id: "BudgetState" },
);
export type BudgetState = Static<typeof BudgetStateSchema>;

export const BudgetChangedEventSchema = Type.Object(
  {
    type: Type.Literal("budget_changed"),
    agent_id: routingAgentId,
    seq: eventSeq,
    budget: BudgetStateSchema,
  },
  { $id: "BudgetChangedEvent" },
);
export type BudgetChangedEvent = Static<typeof BudgetChangedEventSchema>;

/**
 * Our addition: a lower budget applies at once; a higher one (or none) is an escalation the
 * person allows through a `permission_request`, so the response may say `pending`.
 */
export const SetBudgetCommandSchema = Type.Object(
  {
    type: Type.Literal("set_budget"),
    id: optionalCommandId,
    agent_id: routingAgentId,
    /** USD for the whole session; null removes the budget. */
    budget_usd: Type.Union([Type.Number({ minimum: 0, maximum: 1_000_000 }), Type.Null()]),
  },
  { $id: "SetBudgetCommand" },
);
export type SetBudgetCommand = Static<typeof SetBudgetCommandSchema>;

/** `budget` is the state now; `pending: true` means a raise waits for the person's answer. */
export const SetBudgetResultSchema = Type.Object(
  { budget: BudgetStateSchema, pending: Type.Boolean(), request_id: Type.Optional(Type.String()) },
  { $id: "SetBudgetResult" },
);
export type SetBudgetResult = Static<typeof SetBudgetResultSchema>;

/**
 * The daemon to its runtime (not forwarded from clients): the limits it owns that this agent
 * runs under, replacing the previous list. Sent when a runtime starts, before each prompt the
 * daemon forwards, and when spending elsewhere changes what is left.
 */
export const BudgetLimitsCommandSchema = Type.Object(
  {
    type: Type.Literal("budget_limits"),
    id: optionalCommandId,
    agent_id: routingAgentId,
    limits: Type.Array(ExternalBudgetSchema, { maxItems: 4 }),
  },
  { $id: "BudgetLimitsCommand" },
);
export type BudgetLimitsCommand = Static<typeof BudgetLimitsCommandSchema>;

export const BudgetLimitsResultSchema = Type.Object({}, { $id: "BudgetLimitsResult" });
export type BudgetLimitsResult = Static<typeof BudgetLimitsResultSchema>;
