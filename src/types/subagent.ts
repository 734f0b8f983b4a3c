/**
 * Subagent job commands and the run-change event (docs/protocol.md §10.4). Orchestrator-level:
 * `parent_agent_id` is payload naming the owning durable parent; there is no routing
 * `agent_id`. Handles are opaque: a typed id (job-/run-/agent-) or a parent-scoped alias.
 */
import { type Static, Type } from "@sinclair/typebox";
import { eventSeq, requiredCommandId } from "./envelope.ts";
import { SandboxModeSchema } from "./sandbox.ts";
import {
  childDisplayFields,
  JobSnapshotSchema,
  JobStateSchema,
  JobStrategySchema,
  RunSnapshotSchema,
  RunStateSchema,
} from "./subagent-jobs.ts";

const parentAgentId = Type.String({ minLength: 1 });
const handle = Type.String({ minLength: 1 });

export const SubagentTaskSchema = Type.Object(
  { name: Type.String({ minLength: 1 }), task: Type.String({ minLength: 1 }) },
  { $id: "SubagentTask" },
);
export type SubagentTask = Static<typeof SubagentTaskSchema>;

/**
 * Single form `{name, task}` or batch form `{tasks, strategy}`; that the request uses exactly
 * one form is checked by the handler (INVALID_REQUEST), not by this schema.
 */
export const SubagentCreateCommandSchema = Type.Object(
  {
    type: Type.Literal("subagent.create"),
    id: requiredCommandId,
    parent_agent_id: parentAgentId,
    name: Type.Optional(SubagentTaskSchema.properties.name),
    task: Type.Optional(SubagentTaskSchema.properties.task),
    tasks: Type.Optional(Type.Array(SubagentTaskSchema, { minItems: 1 })),
    /** Default single; required for the batch form. */
    strategy: Type.Optional(JobStrategySchema),
    model: Type.Optional(Type.String()),
    provider: Type.Optional(Type.String()),
    mode: Type.Optional(Type.String()),
    /** Seconds each run may take once it starts (default 1800); past it the run is `timed_out`. */
    timeout: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    /**
     * Additive (protocol-additions §18): the children's sandbox mode. Default the parent's; a
     * looser one than the parent's is clamped to the parent's (the result says so).
     */
    sandbox: Type.Optional(SandboxModeSchema),
    /**
     * Additive (protocol-additions §22): USD the whole job may spend, over all its runs; past it
     * every run still going ends `failed` with BUDGET_EXCEEDED, and the parent's report says so.
     */
    budget_usd: Type.Optional(Type.Number({ minimum: 0, maximum: 1_000_000 })),
    /**
     * Additive (protocol-additions §23): a W3C trace-context `traceparent`; each child runtime
     * starts with it as TRACEPARENT, so its spans are children of this span (docs/telemetry.md).
     */
    traceparent: Type.Optional(Type.String({ pattern: "^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$" })),
  },
  { $id: "SubagentCreateCommand" },
);
export type SubagentCreateCommand = Static<typeof SubagentCreateCommandSchema>;

export const SubagentWaitModeSchema = Type.Union([Type.Literal("any"), Type.Literal("all")], {
  $id: "SubagentWaitMode",
});

export type SubagentWaitMode = Static<typeof SubagentWaitModeSchema>;

export const SubagentWaitCommandSchema = Type.Object(
  {
    type: Type.Literal("subagent.wait"),
    id: requiredCommandId,
    parent_agent_id: parentAgentId,
    handles: Type.Array(handle, { minItems: 1 }),
    /** Default all. */
    mode: Type.Optional(SubagentWaitModeSchema),
    /** Seconds; omitted waits forever, 0 polls. Timing out never cancels work. */
    timeout: Type.Optional(Type.Number({ minimum: 0 })),
  },
  { $id: "SubagentWaitCommand" },
);
export type SubagentWaitCommand = Static<typeof SubagentWaitCommandSchema>;

/** Strict active-steer: `target` is a run_id, agent_id or alias. */
export const SubagentSteerCommandSchema = Type.Object(
  {
    type: Type.Literal("subagent.steer"),
    id: requiredCommandId,
    parent_agent_id: parentAgentId,
    target: handle,
    message: Type.String({ minLength: 1 }),
  },
  { $id: "SubagentSteerCommand" },
);
export type SubagentSteerCommand = Static<typeof SubagentSteerCommandSchema>;

export const SubagentRelaunchCommandSchema = Type.Object(
  {
    type: Type.Literal("subagent.relaunch"),
    id: requiredCommandId,
    parent_agent_id: parentAgentId,
    target: handle,
    task: Type.String({ minLength: 1 }),
  },
  { $id: "SubagentRelaunchCommand" },
);
export type SubagentRelaunchCommand = Static<typeof SubagentRelaunchCommandSchema>;

/** Omitting `targets` lists the parent's latest 50 directly-owned jobs, newest first. */
export const SubagentStatusCommandSchema = Type.Object(
  {
    type: Type.Literal("subagent.status"),
    id: requiredCommandId,
    parent_agent_id: parentAgentId,
    targets: Type.Optional(Type.Array(handle)),
  },
  { $id: "SubagentStatusCommand" },
);
export type SubagentStatusCommand = Static<typeof SubagentStatusCommandSchema>;

export const SubagentStopCommandSchema = Type.Object(
  {
    type: Type.Literal("subagent.stop"),
    id: requiredCommandId,
    parent_agent_id: parentAgentId,
    handle,
  },
  { $id: "SubagentStopCommand" },
);
export type SubagentStopCommand = Static<typeof SubagentStopCommandSchema>;

/** Sent to the owning parent's connections after a run transition is persisted. */
export const SubagentRunChangedEventSchema = Type.Object(
  {
    type: Type.Literal("subagent_run_changed"),
    seq: eventSeq,
    parent_agent_id: parentAgentId,
    job_id: Type.String({ minLength: 1 }),
    run_id: Type.String({ minLength: 1 }),
    agent_id: Type.Optional(Type.String({ minLength: 1 })),
    ...childDisplayFields,
    state: RunStateSchema,
    previous_state: Type.Optional(RunStateSchema),
    error: Type.Optional(Type.String()),
    ended_at: Type.Optional(Type.Number()),
  },
  { $id: "SubagentRunChangedEvent" },
);
export type SubagentRunChangedEvent = Static<typeof SubagentRunChangedEventSchema>;

/** A run accepted by create/relaunch: durable ids and alias are preallocated, state queued. */
const queuedRunFields = {
  run_id: Type.String({ minLength: 1 }),
  agent_id: Type.String({ minLength: 1 }),
  alias: Type.String(),
  definition_name: childDisplayFields.definition_name,
  display_name: childDisplayFields.display_name,
  state: Type.Literal("queued"),
};

export const SubagentCreateResultSchema = Type.Object(
  {
    job_id: Type.String({ minLength: 1 }),
    strategy: JobStrategySchema,
    runs: Type.Array(
      Type.Object({ ...queuedRunFields, index: Type.Integer({ minimum: 0 }), name: Type.String() }),
    ),
    /**
     * Additive (protocol-additions §18): the sandbox mode the children run in, when the daemon
     * set one; `requested` is there when a looser mode was asked for and clamped to the parent's.
     */
    sandbox: Type.Optional(
      Type.Object({ mode: SandboxModeSchema, requested: Type.Optional(SandboxModeSchema) }),
    ),
  },
  { $id: "SubagentCreateResult" },
);
export type SubagentCreateResult = Static<typeof SubagentCreateResultSchema>;

export const SubagentWaitResultSchema = Type.Object(
  {
    timed_out: Type.Boolean(),
    aggregate_state: Type.Union([JobStateSchema, Type.Literal("mixed")]),
    runs: Type.Array(RunSnapshotSchema),
  },
  { $id: "SubagentWaitResult" },
);
export type SubagentWaitResult = Static<typeof SubagentWaitResultSchema>;

export const SubagentSteerResultSchema = Type.Object(
  {
    status: Type.Union([Type.Literal("injected"), Type.Literal("conflict")]),
    run_id: Type.String({ minLength: 1 }),
    turn_id: Type.Optional(Type.String()),
    correlation_id: Type.String({ minLength: 1 }),
  },
  { $id: "SubagentSteerResult" },
);
export type SubagentSteerResult = Static<typeof SubagentSteerResultSchema>;

export const SubagentRelaunchResultSchema = Type.Object(
  { job_id: Type.String({ minLength: 1 }), ...queuedRunFields },
  { $id: "SubagentRelaunchResult" },
);
export type SubagentRelaunchResult = Static<typeof SubagentRelaunchResultSchema>;

/** `jobs` is omitted when `targets` was supplied; private task specs are never included. */
export const SubagentStatusResultSchema = Type.Object(
  {
    agents: Type.Array(
      Type.Object({
        agent_id: Type.String({ minLength: 1 }),
        ...childDisplayFields,
        parent_agent_id: Type.Optional(Type.String({ minLength: 1 })),
        run: Type.Optional(RunSnapshotSchema),
      }),
    ),
    jobs: Type.Optional(Type.Array(JobSnapshotSchema)),
  },
  { $id: "SubagentStatusResult" },
);
export type SubagentStatusResult = Static<typeof SubagentStatusResultSchema>;

export const SubagentStopResultSchema = Type.Object(
  {
    cancelled: Type.Array(
      Type.Object({
        run_id: Type.String({ minLength: 1 }),
        agent_id: Type.Optional(Type.String({ minLength: 1 })),
        state: RunStateSchema,
      }),
    ),
    job_id: Type.Optional(Type.String({ minLength: 1 })),
  },
  { $id: "SubagentStopResult" },
);
export type SubagentStopResult = Static<typeof SubagentStopResultSchema>;
