/**
 * The waiters of `subagent.wait` on their own: a disconnected client's waits are dropped (not
 * kept until their runs end), and a parent's abort ends only that parent's waits.
 */
import { describe, expect, test } from "bun:test";
import type { RunRef } from "../../../src/daemon/jobs/job-catalog.ts";
import { JOB_RECORD_VERSION, type JobRecord } from "../../../src/daemon/jobs/job-record.ts";
import { Waiters } from "../../../src/daemon/jobs/waiters.ts";
import type { SubagentWaitResult } from "../../../src/types/subagent.ts";
import type { WireError } from "../../../src/wire/errors.ts";

function activeRun(parent: string): RunRef {
  const job: JobRecord = {
    version: JOB_RECORD_VERSION,
    job_id: `job_${parent}`,
    parent_agent_id: parent,
    strategy: "single",
    launch: { cwd: "/tmp" },
    runs: [
      {
        run_id: `run_${parent}`,
        index: 0,
        name: "w",
        agent_id: `agent_${parent}_child`,
        alias: "ada",
        task: "private",
        state: "active",
        timeout_s: 60,
      },
    ],
    created_at: 0,
  };
  const [run] = job.runs;
  if (!run) throw new Error("no run");
  return { job, run };
}

function recorder() {
  const answers: SubagentWaitResult[] = [];
  const errors: WireError[] = [];
  return {
    answers,
    errors,
    reply: { answer: (r: SubagentWaitResult) => answers.push(r), cancel: (e: WireError) => errors.push(e) },
  };
}

describe("Waiters", () => {
  test("a closed client's waits are dropped: none is kept, and none is answered when the run ends", () => {
    const waiters = new Waiters();
    const ref = activeRun("p1");
    const gone = recorder();
    const staying = recorder();
    waiters.wait({ clientId: "c-gone", parentId: "p1" }, [ref], "all", undefined, gone.reply);
    waiters.wait({ clientId: "c-gone", parentId: "p1" }, [ref], "any", 60, gone.reply);
    waiters.wait({ clientId: "c-stay", parentId: "p1" }, [ref], "all", undefined, staying.reply);
    expect(waiters.size).toBe(3);
    waiters.clientClosed("c-gone");
    expect(waiters.size).toBe(1);
    ref.run.state = "completed";
    waiters.runSettled();
    expect(gone.answers).toEqual([]);
    expect(staying.answers.map((a) => a.timed_out)).toEqual([false]);
    expect(waiters.size).toBe(0);
  });

  test("a parent's abort cancels its own waits only, with the error it is given", () => {
    const waiters = new Waiters();
    const mine = recorder();
    const other = recorder();
    waiters.wait({ clientId: "c", parentId: "p1" }, [activeRun("p1")], "all", undefined, mine.reply);
    waiters.wait({ clientId: "c", parentId: "p2" }, [activeRun("p2")], "all", undefined, other.reply);
    waiters.parentAborted("p1", { code: "CONFLICT", message: "aborted" });
    expect(mine.errors).toEqual([{ code: "CONFLICT", message: "aborted" }]);
    expect(other.errors).toEqual([]);
    expect(waiters.size).toBe(1);
  });
});
