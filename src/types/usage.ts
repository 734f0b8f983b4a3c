/**
 * The daemon's cost ledger (docs/usage.md, protocol-additions §22): one line per provider call of
 * every agent it runs, and `daemon.usage`, which sums it. A cost is null when the model has no
 * price: it is unknown, never 0.
 */
import { type Static, Type } from "@sinclair/typebox";
import { requiredCommandId } from "./envelope.ts";

const id = Type.String({ minLength: 1, maxLength: 200 });
const tokens = Type.Number({ minimum: 0 });

/** One provider call, as `$SHARD_HOME/usage/ledger.jsonl` holds it. */
export const LedgerEntrySchema = Type.Object(
  {
    /** Epoch ms the daemon recorded it. */
    ts: Type.Number(),
    agent_id: id,
    session_id: Type.Optional(id),
    turn_id: Type.Optional(id),
    model: id,
    /** The workspace the agent works in: its id, or the working directory outside any. */
    workspace: Type.String({ minLength: 1, maxLength: 4096 }),
    job_id: Type.Optional(id),
    run_id: Type.Optional(id),
    input: tokens,
    output: tokens,
    cache_read: Type.Optional(tokens),
    cache_write: Type.Optional(tokens),
    cost_usd: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
  },
  { $id: "LedgerEntry" },
);
export type LedgerEntry = Static<typeof LedgerEntrySchema>;

export const UsageGroupingSchema = Type.Union(
  [
    Type.Literal("agent"),
    Type.Literal("model"),
    Type.Literal("job"),
    Type.Literal("workspace"),
    Type.Literal("day"),
  ],
  { $id: "UsageGrouping" },
);
export type UsageGrouping = Static<typeof UsageGroupingSchema>;

/** Our addition: what the ledger says was spent since a time, grouped one way. */
export const DaemonUsageCommandSchema = Type.Object(
  {
    type: Type.Literal("daemon.usage"),
    id: requiredCommandId,
    /** `30m`, `12h`, `7d` back from now, or epoch ms; default `1d`. */
    since: Type.Optional(
      Type.Union([Type.String({ pattern: "^[0-9]+[mhd]$", maxLength: 12 }), Type.Number()]),
    ),
    /** Default `agent`. */
    by: Type.Optional(UsageGroupingSchema),
  },
  { $id: "DaemonUsageCommand" },
);
export type DaemonUsageCommand = Static<typeof DaemonUsageCommandSchema>;

/** Totals of a group. `cost_usd` sums the priced calls (null: none was); `unpriced_calls` were unknown. */
export const UsageTotalsSchema = Type.Object(
  {
    calls: Type.Integer({ minimum: 0 }),
    input: tokens,
    output: tokens,
    cost_usd: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
    unpriced_calls: Type.Integer({ minimum: 0 }),
  },
  { $id: "UsageTotals" },
);
export type UsageTotals = Static<typeof UsageTotalsSchema>;

export const UsageRowSchema = Type.Object(
  {
    /** The agent, model, job, workspace or day (`YYYY-MM-DD`, UTC); `-` for calls outside any job. */
    key: Type.String(),
    /** The agent's name, where the key is an agent that has one. */
    label: Type.Optional(Type.String()),
    ...UsageTotalsSchema.properties,
  },
  { $id: "UsageRow" },
);
export type UsageRow = Static<typeof UsageRowSchema>;

export const DaemonUsageResultSchema = Type.Object(
  {
    /** Epoch ms the sums start at (a compacted day counts whole). */
    since: Type.Number(),
    by: UsageGroupingSchema,
    /** Most expensive first. */
    rows: Type.Array(UsageRowSchema),
    total: UsageTotalsSchema,
    /** The daemon's daily cap and what today's calls cost against it, when a cap is set. */
    daily_budget: Type.Optional(Type.Object({ budget_usd: Type.Number(), spent_usd: Type.Number() })),
  },
  { $id: "DaemonUsageResult" },
);
export type DaemonUsageResult = Static<typeof DaemonUsageResultSchema>;
