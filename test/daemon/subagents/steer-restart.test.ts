/**
 * subagent.steer is strict (injected into the active turn, or CONFLICT when there is none), and
 * after a daemon killed -9 mid-run the run is `interrupted`, nothing is replayed, and
 * subagent.relaunch gives the same durable child new work with its history kept.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { useMockLlmServer } from "../../support/mock-llm/use-mock-llm-server.ts";
import type { Msg } from "../support/daemon-client.ts";
import { DaemonProcess, useDaemonHarnesses, useDaemonProcesses } from "../support/daemon-harness.ts";
import { heldRun, killedMidRun, relaunchAndWait, runState } from "./support.ts";

setDefaultTimeout(90_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);
const processes = useDaemonProcesses();

const requestWith = (marker: string) => llm().requests.find((r) => JSON.stringify(r.body).includes(marker));

describe("subagent.steer", () => {
  test("a steer reaches the active turn (injected); a queued or finished run is CONFLICT", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await harness.createAgent(a);
    llm().enqueue(
      { when: "TASK-ST1", steps: [{ hold: "st1" }, { text: "before steer" }] },
      { when: "STEER-NOW", steps: [{ text: "after steer" }] },
      { when: "TASK-ST2", steps: [{ text: "second step" }] },
    );
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      strategy: "chain",
      tasks: [
        { name: "one", task: "TASK-ST1" },
        { name: "two", task: "TASK-ST2" },
      ],
    });
    const [r1, r2] = created.runs as Msg[];
    await llm().waitForHold("st1");
    await runState(a, r1?.run_id, "active");
    const queued = await a.request({
      type: "subagent.steer",
      parent_agent_id: parent,
      target: r2?.run_id,
      message: "x",
    });
    expect(queued.error.code).toBe("CONFLICT");
    expect(queued.error.message).toContain("queued");
    const child = r1?.agent_id ?? "";
    const b = await harness.unixClient();
    await b.ok({ type: "agent.attach", agent_id: child, role: "observer" });
    const steering = a.request({
      type: "subagent.steer",
      parent_agent_id: parent,
      target: "ada",
      message: "STEER-NOW",
    });
    // The runtime takes its input in order: this answer means the steer sits in its queue.
    await b.ok({ type: "list_modes", agent_id: child });
    llm().release("st1");
    const steered = await steering;
    expect(steered.success).toBe(true);
    expect(steered.data).toMatchObject({ status: "injected", run_id: r1?.run_id });
    expect(steered.data.turn_id).toMatch(/^turn_/);
    expect(steered.data.correlation_id).toBeString();
    const waited = await a.ok({ type: "subagent.wait", parent_agent_id: parent, handles: [created.job_id] });
    expect(waited.runs.map((r: Msg) => r.final_text)).toEqual(["after steer", "second step"]);
    const late = await a.request({
      type: "subagent.steer",
      parent_agent_id: parent,
      target: r1?.run_id,
      message: "y",
    });
    expect(late.error.code).toBe("CONFLICT");
    const byJob = await a.request({
      type: "subagent.steer",
      parent_agent_id: parent,
      target: created.job_id,
      message: "z",
    });
    expect(byJob.error.code).toBe("INVALID_REQUEST");
  });

  test("a steer the turn never takes resolves conflict and is dropped, never a later prompt", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const b = await harness.unixClient();
    const parent = await harness.createAgent(a);
    llm().enqueue({ when: "TASK-SC", steps: [{ hold: "sc" }, { text: "never finished" }] });
    const run = await heldRun(llm, a, parent, "TASK-SC", "sc");
    await b.ok({ type: "agent.attach", agent_id: run.agent_id, role: "observer" });
    const steering = a.request({
      type: "subagent.steer",
      parent_agent_id: parent,
      target: run.run_id,
      message: "LOST-STEER",
    });
    await b.ok({ type: "list_modes", agent_id: run.agent_id });
    // The turn ends without a provider boundary: the run is stopped.
    await b.ok({ type: "subagent.stop", parent_agent_id: parent, handle: run.run_id });
    const steered = await steering;
    expect(steered.data).toMatchObject({ status: "conflict", run_id: run.run_id });
    // Relaunched, the child's model never sees the lost steer.
    llm().enqueue({ when: "TASK-SC2", steps: [{ text: "fresh" }] });
    await runState(a, run.run_id, "cancelled");
    const relaunched = await relaunchAndWait(a, parent, run.agent_id, "TASK-SC2");
    expect(relaunched).toMatchObject({ state: "completed", final_text: "fresh" });
    expect(JSON.stringify(requestWith("TASK-SC2")?.body)).not.toContain("LOST-STEER");
  });
});

describe("daemon restart", () => {
  test("kill -9 mid-run: the run is interrupted, nothing replays, relaunch runs new work on the same child", async () => {
    const { home, parent, created, run } = await killedMidRun(llm, processes, "TASK-R1", "r1");

    const second = new DaemonProcess(home);
    processes.push(second);
    await second.url();
    const b = await second.client();
    const status = await b.ok({ type: "subagent.status", parent_agent_id: parent });
    expect(status.jobs[0]).toMatchObject({ job_id: created.job_id, state: "failed" });
    expect(status.jobs[0].runs[0]).toMatchObject({ run_id: run.run_id, state: "interrupted" });
    expect(status.agents).toEqual([expect.objectContaining({ agent_id: run.agent_id, alias: "ada" })]);
    const requestsBefore = llm().requests.filter((r) => JSON.stringify(r.body).includes("TASK-R1")).length;

    llm().enqueue({ when: "TASK-R2", steps: [{ hold: "r2" }, { text: "relaunched answer" }] });
    const relaunched = await b.ok({
      type: "subagent.relaunch",
      parent_agent_id: parent,
      target: "ada",
      task: "TASK-R2",
    });
    expect(relaunched).toMatchObject({ agent_id: run.agent_id, alias: "ada", state: "queued" });
    expect(relaunched.job_id).not.toBe(created.job_id);
    await llm().waitForHold("r2");
    const busy = await b.request({
      type: "subagent.relaunch",
      parent_agent_id: parent,
      target: "ada",
      task: "again",
    });
    expect(busy.error.code).toBe("CONFLICT");
    llm().release("r2");
    const waited = await b.ok({
      type: "subagent.wait",
      parent_agent_id: parent,
      handles: [relaunched.run_id],
    });
    expect(waited.runs[0]).toMatchObject({ state: "completed", final_text: "relaunched answer" });
    // The child's conversation is kept (its first task is in the history), and it was not replayed.
    expect(JSON.stringify(requestWith("TASK-R2")?.body)).toContain("TASK-R1");
    const onlyFirst = llm().requests.filter((r) => {
      const body = JSON.stringify(r.body);
      return body.includes("TASK-R1") && !body.includes("TASK-R2");
    });
    expect(onlyFirst).toHaveLength(requestsBefore);
    b.close();
  });
});
