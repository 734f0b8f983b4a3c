/**
 * Subagent job/run records as they cross the wire (docs/protocol.md §12). Task text is private:
 * it never appears in these types.
 */
import { type Static, Type } from "@sinclair/typebox";

export const JobStateSchema = Type.Union(
  [
    Type.Literal("queued"),
    Type.Literal("running"),
    Type.Literal("completed"),
    Type.Literal("failed"),
    Type.Literal("cancelled"),
  ],
  { $id: "JobState" },
);
export type JobState = Static<typeof JobStateSchema>;

/** `interrupted`: terminal state given to nonterminal runs on daemon restart; relaunchable. */
export const RunStateSchema = Type.Union(
  [
    Type.Literal("queued"),
    Type.Literal("starting"),
    Type.Literal("active"),
    Type.Literal("completed"),
    Type.Literal("failed"),
    Type.Literal("timed_out"),
    Type.Literal("cancelled"),
    Type.Literal("interrupted"),
  ],
  { $id: "RunState" },
);
export type RunState = Static<typeof RunStateSchema>;

export const JobStrategySchema = Type.Union(
  [Type.Literal("single"), Type.Literal("parallel"), Type.Literal("chain")],
  { $id: "JobStrategy" },
);
export type JobStrategy = Static<typeof JobStrategySchema>;

/** Display identity of a child agent: alias and launch definition (never ids). */
export const childDisplayFields = {
  alias: Type.Optional(Type.String()),
  definition_name: Type.Optional(Type.String()),
  display_name: Type.Optional(Type.String()),
};

export const RunSnapshotSchema = Type.Object(
  {
    job_id: Type.String({ minLength: 1 }),
    run_id: Type.String({ minLength: 1 }),
    index: Type.Integer({ minimum: 0 }),
    name: Type.String(),
    agent_id: Type.Optional(Type.String({ minLength: 1 })),
    ...childDisplayFields,
    state: RunStateSchema,
    /** Epoch milliseconds. */
    deadline: Type.Optional(Type.Number()),
    /** Only ever sent to the owning parent. */
    final_text: Type.Optional(Type.String()),
    usage: Type.Optional(
      Type.Object({
        input: Type.Number(),
        output: Type.Number(),
        /** Additive (protocol-additions §22): USD of the run's priced calls; absent when none was priced. */
        cost: Type.Optional(Type.Number()),
        /** Some call had no price: the cost is unknown (in part, when `cost` is there too). */
        cost_unknown: Type.Optional(Type.Literal(true)),
      }),
    ),
    error: Type.Optional(Type.String()),
    started_at: Type.Optional(Type.Number()),
    ended_at: Type.Optional(Type.Number()),
  },
  { $id: "RunSnapshot" },
);
export type RunSnapshot = Static<typeof RunSnapshotSchema>;

export const JobSnapshotSchema = Type.Object(
  {
    job_id: Type.String({ minLength: 1 }),
    parent_agent_id: Type.String({ minLength: 1 }),
    strategy: JobStrategySchema,
    state: JobStateSchema,
    runs: Type.Array(RunSnapshotSchema),
    chain_step: Type.Optional(Type.Integer({ minimum: 0 })),
    stopped_at: Type.Optional(Type.Number()),
    created_at: Type.Number(),
    ended_at: Type.Optional(Type.Number()),
  },
  { $id: "JobSnapshot" },
);
export type JobSnapshot = Static<typeof JobSnapshotSchema>;
