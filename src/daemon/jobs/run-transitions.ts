/**
 * Applies run transitions to a job record and commits it: the record is on disk before anyone
 * hears of the change (`subagent_run_changed`, waiters, the parent's completion report).
 */
import type { SubagentRunChangedEvent } from "../../types/subagent.ts";
import type { RunState } from "../../types/subagent-jobs.ts";
import type { JobRecord, RunRecord } from "./job-record.ts";
import { isTerminal } from "./job-record.ts";
import type { JobStore } from "./job-store.ts";

export interface Transition {
  run: RunRecord;
  state: RunState;
  patch?: Partial<Pick<RunRecord, "final_text" | "usage" | "error" | "started_at" | "deadline">>;
}

export interface Changed {
  run: RunRecord;
  previous: RunState;
}

/** Applies every transition (a terminal run never moves again), saves once, returns what changed. */
export function commitTransitions(
  store: JobStore,
  job: JobRecord,
  transitions: Transition[],
  now: number,
): Changed[] {
  const changed: Changed[] = [];
  for (const t of transitions) {
    const previous = t.run.state;
    if (isTerminal(previous)) continue;
    Object.assign(t.run, t.patch ?? {});
    t.run.state = t.state;
    if (isTerminal(t.state)) {
      t.run.ended_at = now;
      t.run.report_pending = true;
    }
    changed.push({ run: t.run, previous });
  }
  if (changed.length === 0) return changed;
  if (job.runs.every((r) => isTerminal(r.state))) job.ended_at ??= now;
  store.save(job);
  return changed;
}

export function runChangedEvent(job: JobRecord, change: Changed): SubagentRunChangedEvent {
  const { run } = change;
  const event: SubagentRunChangedEvent = {
    type: "subagent_run_changed",
    parent_agent_id: job.parent_agent_id,
    job_id: job.job_id,
    run_id: run.run_id,
    agent_id: run.agent_id,
    alias: run.alias,
    state: run.state,
    previous_state: change.previous,
  };
  if (run.error !== undefined) event.error = run.error;
  if (run.ended_at !== undefined) event.ended_at = run.ended_at;
  return event;
}
