/**
 * subagent.create (docs/protocol.md §10.4): a durable job committed before the response, its child
 * a managed agent under the parent, the task played as the child's prompt, the run's terminal
 * state and final text on record; the whole request validated before any side effect.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { useMockLlmServer } from "../../support/mock-llm/use-mock-llm-server.ts";
import type { Msg } from "../support/daemon-client.ts";
import { useDaemonHarnesses } from "../support/daemon-harness.ts";
import { jobFiles, parentAgent, runState } from "./support.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);

describe("subagent.create", () => {
  test("a single task: record on disk before the response, child runs it, completed with its final text", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await parentAgent(harness, a);
    llm().enqueue({ when: "TASK-SOLO", steps: [{ hold: "solo" }, { text: "solo result 42" }] });

    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "solo",
      task: "TASK-SOLO count",
    });
    // Committed before the response: the record already names every preallocated id.
    const [file] = jobFiles(harness.home);
    expect(file).toBe(`${created.job_id}.json`);
    const record = JSON.parse(readFileSync(join(harness.home, "jobs", file ?? ""), "utf8"));
    expect(record).toMatchObject({
      version: 1,
      job_id: created.job_id,
      parent_agent_id: parent,
      strategy: "single",
    });
    expect(created).toMatchObject({
      strategy: "single",
      runs: [{ index: 0, name: "solo", state: "queued" }],
    });
    const run: Msg = created.runs[0];
    expect(created.job_id).toMatch(/^job-/);
    expect(run.run_id).toMatch(/^run-/);
    expect(run.agent_id).toMatch(/^agent-/);
    expect(run.alias).toBe("ada");
    expect(record.runs[0]).toMatchObject({ run_id: run.run_id, agent_id: run.agent_id, alias: "ada" });

    await llm().waitForHold("solo");
    await runState(a, run.run_id, "active");
    // The child is a managed agent of the parent, shown with its alias.
    const listed = await a.ok({ type: "agent.list" });
    expect(listed.agents).toContainEqual(
      expect.objectContaining({ agent_id: run.agent_id, parent_agent_id: parent, alias: "ada" }),
    );
    llm().release("solo");
    const done = await runState(a, run.run_id, "completed");
    expect(done).toMatchObject({ parent_agent_id: parent, job_id: created.job_id, previous_state: "active" });
    const waited = await a.ok({ type: "subagent.wait", parent_agent_id: parent, handles: [created.job_id] });
    expect(waited).toMatchObject({ timed_out: false, aggregate_state: "completed" });
    expect(waited.runs[0]).toMatchObject({
      run_id: run.run_id,
      state: "completed",
      final_text: "solo result 42",
    });
    const onDisk = JSON.parse(readFileSync(join(harness.home, "jobs", file ?? ""), "utf8"));
    expect(onDisk.runs[0]).toMatchObject({ state: "completed", final_text: "solo result 42" });
    expect(onDisk.ended_at).toBeNumber();
  });

  test("an invalid request changes nothing: both forms, no strategy, unknown parent, depth and task limits", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    // The default launch policy: 8 tasks a job, children to depth 2 (a client cannot set another).
    const parent = await parentAgent(harness, a);
    const task = { name: "x", task: "never run" };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: "x", task: "t", tasks: [task] }, "INVALID_REQUEST", "not both"],
      [{ tasks: [task] }, "INVALID_REQUEST", '"strategy"'],
      [{ tasks: [task, task], strategy: "single" }, "INVALID_REQUEST", '"single" takes one task'],
      [{ name: "x" }, "INVALID_REQUEST", '"task"'],
      [{ name: "x", task: "t", strategy: "chain" }, "INVALID_REQUEST", "batch form"],
      [{ tasks: Array(9).fill(task), strategy: "parallel" }, "PERMISSION_DENIED", "at most 8"],
      [{ tasks: [], strategy: "parallel" }, "INVALID_REQUEST", "tasks"],
      // A model no provider has is refused before any child exists, naming what there is.
      [{ ...task, model: "mock/nope" }, "INVALID_REQUEST", "mock/chat"],
      [{ ...task, model: "nope/x" }, "INVALID_REQUEST", 'no provider "nope"'],
    ];
    for (const [fields, code, text] of cases) {
      const res = await a.request({ type: "subagent.create", parent_agent_id: parent, ...fields });
      expect({ fields, code: res.error?.code }).toEqual({ fields, code });
      expect(res.error.message).toContain(text);
    }
    const unknown = await a.request({ type: "subagent.create", parent_agent_id: "agent_nobody", ...task });
    expect(unknown.error.code).toBe("NOT_FOUND");
    expect(jobFiles(harness.home)).toEqual([]);
    const listed = await a.ok({ type: "agent.list" });
    expect(listed.agents.map((x: Msg) => x.agent_id)).toEqual([parent]);

    // maxDepth 2: the parent's grandchild may not launch children of its own.
    llm().enqueue(
      { when: "TASK-DEPTH-1", steps: [{ hold: "depth-1" }, { text: "ok" }] },
      { when: "TASK-DEPTH-2", steps: [{ hold: "depth-2" }, { text: "ok" }] },
    );
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "d",
      task: "TASK-DEPTH-1",
    });
    const child = created.runs[0].agent_id;
    await llm().waitForHold("depth-1");
    const grand = await a.ok({
      type: "subagent.create",
      parent_agent_id: child,
      name: "e",
      task: "TASK-DEPTH-2",
    });
    await llm().waitForHold("depth-2");
    const nested = await a.request({
      type: "subagent.create",
      parent_agent_id: grand.runs[0].agent_id,
      name: "y",
      task: "deeper",
    });
    expect(nested.error.code).toBe("PERMISSION_DENIED");
    expect(nested.error.message).toContain("depth 2");
    expect(jobFiles(harness.home)).toHaveLength(2);
    llm().release("depth-2");
    await runState(a, grand.runs[0].run_id, "completed");
    llm().release("depth-1");
    await runState(a, created.runs[0].run_id, "completed");
  });

  test("a run past its deadline is timed_out and its child is stopped", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await parentAgent(harness, a);
    llm().enqueue({ when: "TASK-SLOW", steps: [{ hold: "slow", timeout_ms: 30_000 }, { text: "too late" }] });
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "slow",
      task: "TASK-SLOW",
      timeout: 1,
    });
    const runId = created.runs[0].run_id;
    const ended = await runState(a, runId, "timed_out");
    expect(ended.error).toContain("deadline of 1 s");
    const waited = await a.ok({
      type: "subagent.wait",
      parent_agent_id: parent,
      handles: [runId],
      timeout: 0,
    });
    expect(waited).toMatchObject({ timed_out: false, aggregate_state: "failed" });
    expect(waited.runs[0].final_text).toBeUndefined();
    const child = created.runs[0].agent_id;
    await a.waitFor(
      (m) => m.type === "agent_status_changed" && m.agent_id === child && m.runtime_state === "stopped",
    );
  });
});
