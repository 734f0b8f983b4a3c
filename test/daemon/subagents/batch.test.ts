/**
 * Batch jobs (docs/protocol.md §10.4): a parallel batch runs every child at once and one failure
 * does not stop its siblings; a chain runs one step at a time, feeds each step the previous step's
 * final text, and a failed step fails the rest.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { useMockLlmServer } from "../../support/mock-llm/use-mock-llm-server.ts";
import type { Msg } from "../support/daemon-client.ts";
import { useDaemonHarnesses } from "../support/daemon-harness.ts";
import { parentAgent, runState } from "./support.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);

const bodyOf = (marker: string) =>
  llm()
    .requests.map((r) => JSON.stringify(r.body))
    .find((b) => b.includes(marker)) ?? "";

describe("batch jobs", () => {
  test("parallel batch of 3 with one failing: all three run at once, the others complete", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await parentAgent(harness, a);
    llm().enqueue(
      { when: "TASK-PA", steps: [{ hold: "pa" }, { text: "pa done" }] },
      { when: "TASK-PB", status: 400, error_type: "invalid_request_error" },
      { when: "TASK-PC", steps: [{ hold: "pc" }, { text: "pc done" }] },
    );
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      strategy: "parallel",
      tasks: [
        { name: "a", task: "TASK-PA" },
        { name: "b", task: "TASK-PB" },
        { name: "c", task: "TASK-PC" },
      ],
    });
    const runs: Msg[] = created.runs;
    expect(runs.map((r) => r.alias)).toEqual(["ada", "basil", "cedar"]);
    expect(new Set(runs.map((r) => r.agent_id)).size).toBe(3);
    // Both held children are mid-turn at the same time: they run in parallel.
    await llm().waitForHold("pa");
    await llm().waitForHold("pc");
    const failed = await runState(a, runs[1]?.run_id, "failed");
    expect(failed.error).toBeString();
    llm().release("pa");
    llm().release("pc");
    const waited = await a.ok({ type: "subagent.wait", parent_agent_id: parent, handles: [created.job_id] });
    expect(waited.runs.map((r: Msg) => r.state)).toEqual(["completed", "failed", "completed"]);
    expect(waited.runs.map((r: Msg) => r.final_text)).toEqual(["pa done", undefined, "pc done"]);
    expect(waited.aggregate_state).toBe("mixed");
    const status = await a.ok({ type: "subagent.status", parent_agent_id: parent });
    expect(status.jobs[0]).toMatchObject({ job_id: created.job_id, strategy: "parallel", state: "failed" });
  });

  test("the concurrency limit (--max-subagent-runs 1): the second run waits queued until the first ends", async () => {
    const harness = await startHarness({ maxSubagentRuns: 1 });
    const a = await harness.unixClient();
    const parent = await parentAgent(harness, a);
    llm().enqueue(
      { when: "TASK-L1", steps: [{ hold: "l1" }, { text: "l1 done" }] },
      { when: "TASK-L2", steps: [{ text: "l2 done" }] },
    );
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      strategy: "parallel",
      tasks: [
        { name: "one", task: "TASK-L1" },
        { name: "two", task: "TASK-L2" },
      ],
    });
    const [first, second] = created.runs as Msg[];
    await llm().waitForHold("l1");
    const held = await a.ok({ type: "subagent.status", parent_agent_id: parent, targets: [second?.run_id] });
    expect(held.agents[0].run.state).toBe("queued");
    llm().release("l1");
    const waited = await a.ok({ type: "subagent.wait", parent_agent_id: parent, handles: [created.job_id] });
    expect(waited.runs.map((r: Msg) => r.final_text)).toEqual(["l1 done", "l2 done"]);
    expect(waited.runs[0].run_id).toBe(first?.run_id);
    const secondStarted = waited.runs[1].started_at;
    expect(secondStarted).toBeGreaterThanOrEqual(waited.runs[0].ended_at);
  });

  test("a chain of 3: one step at a time, each fed the previous step's final text", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await parentAgent(harness, a);
    llm().enqueue(
      { when: "TASK-C1", steps: [{ hold: "c1" }, { text: "OUT-ONE" }] },
      { when: "TASK-C2", steps: [{ text: "OUT-TWO" }] },
      { when: "TASK-C3", steps: [{ text: "OUT-THREE" }] },
    );
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      strategy: "chain",
      tasks: [
        { name: "one", task: "TASK-C1" },
        { name: "two", task: "TASK-C2" },
        { name: "three", task: "TASK-C3" },
      ],
    });
    await llm().waitForHold("c1");
    // Step two waits for step one.
    const polled = await a.ok({
      type: "subagent.status",
      parent_agent_id: parent,
      targets: [created.runs[1].run_id],
    });
    expect(polled.agents[0].run.state).toBe("queued");
    llm().release("c1");
    const waited = await a.ok({ type: "subagent.wait", parent_agent_id: parent, handles: [created.job_id] });
    expect(waited.aggregate_state).toBe("completed");
    expect(waited.runs.map((r: Msg) => r.final_text)).toEqual(["OUT-ONE", "OUT-TWO", "OUT-THREE"]);
    expect(bodyOf("TASK-C2")).toContain("OUT-ONE");
    expect(bodyOf("TASK-C3")).toContain("OUT-TWO");
    const status = await a.ok({ type: "subagent.status", parent_agent_id: parent });
    expect(status.jobs[0]).toMatchObject({ state: "completed", chain_step: 2 });
  });

  test("a failed chain step fails the steps after it; they never start", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await parentAgent(harness, a);
    llm().enqueue({ when: "TASK-F1", status: 400, error_type: "invalid_request_error" });
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      strategy: "chain",
      tasks: [
        { name: "one", task: "TASK-F1" },
        { name: "two", task: "TASK-F2" },
      ],
    });
    const waited = await a.ok({ type: "subagent.wait", parent_agent_id: parent, handles: [created.job_id] });
    expect(waited.runs.map((r: Msg) => r.state)).toEqual(["failed", "failed"]);
    expect(waited.runs[1].error).toContain("chain step 0");
    expect(waited.runs[1].started_at).toBeUndefined();
    expect(bodyOf("TASK-F2")).toBe("");
  });
});
