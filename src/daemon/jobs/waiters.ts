/**
 * `subagent.wait` (docs/protocol.md §10.4): a waiter holds the runs its handles resolved to at
 * acceptance and answers when any/all of them are terminal, or when its timeout passes — which
 * stops the waiting only, never the work. Its parent's abort or its client's disconnect cancels
 * the waiter (and only it): nothing is kept for a connection that is gone.
 */
import type { SubagentWaitMode, SubagentWaitResult } from "../../types/subagent.ts";
import type { JobState } from "../../types/subagent-jobs.ts";
import type { WireError } from "../../wire/errors.ts";
import type { RunRef } from "./job-catalog.ts";
import { isTerminal, jobStateOfRun, runSnapshot } from "./job-record.ts";

export interface WaitReply {
  answer(result: SubagentWaitResult): void;
  cancel(error: WireError): void;
}

interface Waiter {
  clientId: string;
  parentId: string;
  refs: RunRef[];
  mode: SubagentWaitMode;
  reply: WaitReply;
  timer?: ReturnType<typeof setTimeout>;
}

export class Waiters {
  private readonly waiting = new Set<Waiter>();

  /** Waits not yet answered. */
  get size(): number {
    return this.waiting.size;
  }

  /** `timeoutS` undefined waits forever; 0 answers now either way. */
  wait(
    owner: { clientId: string; parentId: string },
    refs: RunRef[],
    mode: SubagentWaitMode,
    timeoutS: number | undefined,
    reply: WaitReply,
  ): void {
    const waiter: Waiter = { ...owner, refs, mode, reply };
    if (settled(waiter) || timeoutS === 0) {
      reply.answer(result(refs, !settled(waiter)));
      return;
    }
    if (timeoutS !== undefined) {
      waiter.timer = setTimeout(() => {
        this.waiting.delete(waiter);
        reply.answer(result(refs, true));
      }, timeoutS * 1000);
    }
    this.waiting.add(waiter);
  }

  /** A run reached a terminal state (already on record). */
  runSettled(): void {
    for (const waiter of this.waiting) {
      if (!settled(waiter)) continue;
      this.drop(waiter);
      waiter.reply.answer(result(waiter.refs, false));
    }
  }

  /** The client disconnected: its waits are dropped unanswered. */
  clientClosed(clientId: string): void {
    for (const waiter of this.waiting) if (waiter.clientId === clientId) this.drop(waiter);
  }

  /** The parent was aborted: its waits end with `error`; the runs go on. */
  parentAborted(parentId: string, error: WireError): void {
    for (const waiter of this.waiting) {
      if (waiter.parentId !== parentId) continue;
      this.drop(waiter);
      waiter.reply.cancel(error);
    }
  }

  private drop(waiter: Waiter): void {
    this.waiting.delete(waiter);
    if (waiter.timer) clearTimeout(waiter.timer);
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
function aggregate(refs: RunRef[]): JobState | "mixed" {
  const states = new Set(refs.map((r) => jobStateOfRun(r.run.state)));
  const [only] = states;
  return states.size === 1 && only !== undefined ? only : "mixed";
}
