/**
 * The daemon-private job record (docs/architecture.md §7.2): `$SHARD_HOME/jobs/<job_id>.json`, one
 * file per job, rewritten atomically on every run transition. Unlike the wire snapshots it holds
 * each run's task text, which never leaves the daemon.
 */
import { type Static, Type } from "@sinclair/typebox";
import { describeError } from "../../support/describe-error.ts";
import { idPattern } from "../../support/ids.ts";
import { SandboxModeSchema, SandboxPolicySchema } from "../../types/sandbox.ts";
import type { JobSnapshot, JobState, RunSnapshot, RunState } from "../../types/subagent-jobs.ts";
import { JobStrategySchema, RunStateSchema } from "../../types/subagent-jobs.ts";
import { schemaCheck } from "../../wire/schema-check.ts";

export const JOB_RECORD_VERSION = 1;

const RunRecordSchema = Type.Object({
  run_id: Type.String({ pattern: idPattern("run") }),
  index: Type.Integer({ minimum: 0 }),
  name: Type.String(),
  agent_id: Type.String({ pattern: idPattern("agent") }),
  alias: Type.String({ minLength: 1 }),
  /** Private: only the child's prompt ever carries it. */
  task: Type.String({ minLength: 1 }),
  state: RunStateSchema,
  /** Seconds the run may take once it starts. */
  timeout_s: Type.Number({ exclusiveMinimum: 0 }),
  deadline: Type.Optional(Type.Number()),
  final_text: Type.Optional(Type.String()),
  usage: Type.Optional(
    Type.Object({
      input: Type.Number(),
      output: Type.Number(),
      cost: Type.Optional(Type.Number()),
      cost_unknown: Type.Optional(Type.Literal(true)),
    }),
  ),
  error: Type.Optional(Type.String()),
  started_at: Type.Optional(Type.Number()),
  ended_at: Type.Optional(Type.Number()),
  /**
   * Private: set in the commit that ends the run, cleared once the parent's runtime took the
   * completion report, so a report a stop or crash kept from the parent goes at the next start.
   */
  report_pending: Type.Optional(Type.Literal(true)),
});
export type RunRecord = Static<typeof RunRecordSchema>;

export const JobRecordSchema = Type.Object({
  version: Type.Literal(JOB_RECORD_VERSION),
  job_id: Type.String({ pattern: idPattern("job") }),
  parent_agent_id: Type.String({ minLength: 1 }),
  strategy: JobStrategySchema,
  /** USD the job's runs may spend together (docs/usage.md); the cost ledger counts it. */
  budget_usd: Type.Optional(Type.Number({ minimum: 0 })),
  /** Child launch settings, applied when each run's agent is materialized. */
  launch: Type.Object({
    cwd: Type.String({ minLength: 1 }),
    model: Type.Optional(Type.String()),
    mode: Type.Optional(Type.String()),
    /** The children's sandbox: never looser than the parent's when the job was created. */
    sandbox: Type.Optional(SandboxModeSchema),
    sandbox_policy: Type.Optional(SandboxPolicySchema),
    network_allow: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    /** The creating tool call's span (W3C traceparent): the children's TRACEPARENT. */
    traceparent: Type.Optional(Type.String({ minLength: 1 })),
  }),
  runs: Type.Array(RunRecordSchema, { minItems: 1 }),
  /** The chain step that runs (or ran) last. */
  chain_step: Type.Optional(Type.Integer({ minimum: 0 })),
  stopped_at: Type.Optional(Type.Number()),
  created_at: Type.Number(),
  ended_at: Type.Optional(Type.Number()),
});
export type JobRecord = Static<typeof JobRecordSchema>;

const recordCheck = schemaCheck(JobRecordSchema);

export function parseJobRecord(text: string): { ok: true; job: JobRecord } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `bad JSON: ${describeError(err)}` };
  }
  if (recordCheck.check(value)) return { ok: true, job: value };
  const first = recordCheck.firstError(value);
  return { ok: false, reason: `${first?.path || "(job)"}: ${first?.message ?? "does not match its schema"}` };
}

const TERMINAL: ReadonlySet<RunState> = new Set([
  "completed",
  "failed",
  "timed_out",
  "cancelled",
  "interrupted",
]);

export function isTerminal(state: RunState): boolean {
  return TERMINAL.has(state);
}

/** The job-level reading of one run's state (docs/protocol.md §12). */
export function jobStateOfRun(state: RunState): JobState {
  switch (state) {
    case "queued":
      return "queued";
    case "starting":
    case "active":
      return "running";
    case "completed":
      return "completed";
    case "cancelled":
      return "cancelled";
    case "failed":
    case "timed_out":
    case "interrupted":
      return "failed";
  }
}

/** Queued until a run starts; running until all are terminal; then completed, failed or cancelled. */
function jobState(runs: readonly Pick<RunRecord, "state">[]): JobState {
  if (runs.every((r) => r.state === "queued")) return "queued";
  if (!runs.every((r) => isTerminal(r.state))) return "running";
  if (runs.every((r) => r.state === "completed")) return "completed";
  if (runs.some((r) => jobStateOfRun(r.state) === "failed")) return "failed";
  return "cancelled";
}

/** What the owning parent may see of a run: everything but the task. */
export function runSnapshot(job: JobRecord, run: RunRecord): RunSnapshot {
  const { task: _private, timeout_s: _timeout, report_pending: _report, ...visible } = run;
  return { job_id: job.job_id, ...visible };
}

export function jobSnapshot(job: JobRecord): JobSnapshot {
  const snapshot: JobSnapshot = {
    job_id: job.job_id,
    parent_agent_id: job.parent_agent_id,
    strategy: job.strategy,
    state: jobState(job.runs),
    runs: job.runs.map((r) => runSnapshot(job, r)),
    created_at: job.created_at,
  };
  if (job.chain_step !== undefined) snapshot.chain_step = job.chain_step;
  if (job.stopped_at !== undefined) snapshot.stopped_at = job.stopped_at;
  if (job.ended_at !== undefined) snapshot.ended_at = job.ended_at;
  return snapshot;
}
