/**
 * `subagent.wait` (PROTOCOL §10.3): a waiter holds the runs its handles resolved to at
 * acceptance and answers when any/all of them are terminal, or when its timeout passes — which
 * stops the waiting only, never the work.
 */
import type { SubagentWaitMode, SubagentWaitResult } from "../../types/subagent.ts";
import type { JobState } from "../../types/subagent-jobs.ts";
import type { RunRef } from "./job-catalog.ts";
import { isTerminal, jobStateOfRun, runSnapshot } from "./job-record.ts";

interface Waiter {
  refs: RunRef[];
  mode: SubagentWaitMode;
  answer(result: SubagentWaitResult): void;
  timer?: ReturnType<typeof setTimeout>;
}

export class Waiters {
  private readonly waiting = new Set<Waiter>();

  /** `timeoutS` undefined waits forever; 0 answers now either way. */
  wait(
    refs: RunRef[],
    mode: SubagentWaitMode,
    timeoutS: number | undefined,
    answer: (r: SubagentWaitResult) => void,
  ): void {
    const waiter: Waiter = { refs, mode, answer };
    if (settled(waiter) || timeoutS === 0) {
      answer(result(refs, !settled(waiter)));
      return;
    }
    if (timeoutS !== undefined) {
      waiter.timer = setTimeout(() => {
        this.waiting.delete(waiter);
        answer(result(refs, true));
      }, timeoutS * 1000);
    }
    this.waiting.add(waiter);
  }

  /** A run reached a terminal state (already on record). */
  runSettled(): void {
    for (const waiter of this.waiting) {
      if (!settled(waiter)) continue;
      this.waiting.delete(waiter);
      if (waiter.timer) clearTimeout(waiter.timer);
      waiter.answer(result(waiter.refs, false));
    }
  }
}

function settled(waiter: Waiter): boolean {
  const done = (r: RunRef) => isTerminal(r.run.state);
  return waiter.mode === "any" ? waiter.refs.some(done) : waiter.refs.every(done);
}

function result(refs: RunRef[], timedOut: boolean): SubagentWaitResult {
  return {
    timed_out: timedOut,
    aggregate_state: aggregate(refs),
    runs: refs.map((r) => runSnapshot(r.job, r.run)),
  };
}

/** The common job-level state of the runs, or `mixed` when they differ. */
export function aggregate(refs: RunRef[]): JobState | "mixed" {
  const states = new Set(refs.map((r) => jobStateOfRun(r.run.state)));
  const [only] = states;
  return states.size === 1 && only !== undefined ? only : "mixed";
}
