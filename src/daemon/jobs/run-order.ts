/**
 * Which runs of a job go next (every queued run of a parallel job, one chain step at a time),
 * what a chain step that did not complete does to the steps after it, and a step's prompt.
 */
import type { RunState } from "../../types/subagent-jobs.ts";
import { isTerminal, type JobRecord, type RunRecord } from "./job-record.ts";
import type { Transition } from "./run-transitions.ts";

/** Queued runs that may start now: every one of a parallel job, the next step of a chain. */
export function startable(job: JobRecord): RunRecord[] {
  if (job.strategy !== "chain") return job.runs.filter((r) => r.state === "queued");
  const next = job.runs.find((r) => r.state !== "completed");
  return next?.state === "queued" ? [next] : [];
}

/** A chain step that did not complete ends the steps after it: failed, or cancelled with a stop. */
export function restOfChain(job: JobRecord, run: RunRecord, state: RunState): Transition[] {
  if (job.strategy !== "chain") return [];
  const outcome: RunState = state === "cancelled" || state === "interrupted" ? "cancelled" : "failed";
  const error = `chain step ${run.index} (${run.name}) ended ${state}`;
  return job.runs
    .filter((r) => r.index > run.index && !isTerminal(r.state))
    .map((r) => ({ run: r, state: outcome, patch: { error } }));
}

/** The child's prompt: its task, and in a chain the previous step's final text. */
export function promptText(job: JobRecord, run: RunRecord): string {
  if (job.strategy !== "chain" || run.index === 0) return run.task;
  const previous = job.runs[run.index - 1];
  return `${run.task}\n\nThe previous step (${previous?.name ?? "?"}) answered:\n\n${previous?.final_text ?? "(no text)"}`;
}
