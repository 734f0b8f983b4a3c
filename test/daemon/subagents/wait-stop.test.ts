/**
 * subagent.wait (any/all, a timeout that never cancels, 0 polls) and subagent.stop (a job
 * handle stops the job, a run handle only that run) — docs/protocol.md §10.4.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { useMockLlmServer } from "../../support/mock-llm/use-mock-llm-server.ts";
import type { DaemonClient, Msg } from "../support/daemon-client.ts";
import { useDaemonHarnesses } from "../support/daemon-harness.ts";
import { parentAgent, runState } from "./support.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);

async function twoHeld(
  a: DaemonClient,
  parent: string,
  strategy: "parallel" | "chain",
  tag: string,
): Promise<Msg> {
  llm().enqueue(
    { when: `TASK-${tag}1`, steps: [{ hold: `${tag}1` }, { text: `${tag}1 done` }] },
    { when: `TASK-${tag}2`, steps: [{ hold: `${tag}2` }, { text: `${tag}2 done` }] },
  );
  return a.ok({
    type: "subagent.create",
    parent_agent_id: parent,
    strategy,
    tasks: [
      { name: "first", task: `TASK-${tag}1` },
      { name: "second", task: `TASK-${tag}2` },
    ],
  });
}

describe("subagent.wait", () => {
  test("any answers on the first terminal run, all on the last; handles by run id and alias (any case)", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await parentAgent(harness, a);
    const created = await twoHeld(a, parent, "parallel", "W");
    const [r1, r2] = created.runs as Msg[];
    await llm().waitForHold("W1");
    await llm().waitForHold("W2");
    const any = a.ok({
      type: "subagent.wait",
      parent_agent_id: parent,
      handles: [r1?.run_id, "BASIL"],
      mode: "any",
    });
    const all = a.ok({ type: "subagent.wait", parent_agent_id: parent, handles: [created.job_id] });
    llm().release("W2");
    const first = await any;
    expect(first.timed_out).toBe(false);
    expect(first.runs.map((r: Msg) => [r.run_id, r.state])).toEqual([
      [r1?.run_id, "active"],
      [r2?.run_id, "completed"],
    ]);
    expect(first.aggregate_state).toBe("mixed");
    llm().release("W1");
    const last = await all;
    expect(last).toMatchObject({ timed_out: false, aggregate_state: "completed" });
  });

  test("a timeout stops only the waiting; 0 polls; an unknown handle is NOT_FOUND", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await parentAgent(harness, a);
    llm().enqueue({ when: "TASK-T", steps: [{ hold: "t" }, { text: "t done" }] });
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "t",
      task: "TASK-T",
    });
    const runId = created.runs[0].run_id;
    await llm().waitForHold("t");
    const timedOut = await a.ok({
      type: "subagent.wait",
      parent_agent_id: parent,
      handles: [runId],
      timeout: 0.5,
    });
    expect(timedOut).toMatchObject({
      timed_out: true,
      aggregate_state: "running",
      runs: [{ state: "active" }],
    });
    const poll = await a.ok({ type: "subagent.wait", parent_agent_id: parent, handles: ["ada"], timeout: 0 });
    expect(poll).toMatchObject({ timed_out: true, runs: [{ run_id: runId, state: "active" }] });
    const missing = await a.request({
      type: "subagent.wait",
      parent_agent_id: parent,
      handles: [runId, "nobody"],
    });
    expect(missing.error.code).toBe("NOT_FOUND");
    expect(missing.error.message).toContain('"nobody"');
    // The run went on: it completes after all those waits ended.
    llm().release("t");
    await runState(a, runId, "completed");
    const after = await a.ok({
      type: "subagent.wait",
      parent_agent_id: parent,
      handles: [runId],
      timeout: 0,
    });
    expect(after).toMatchObject({ timed_out: false, runs: [{ state: "completed", final_text: "t done" }] });
  });
});

describe("subagent.stop", () => {
  test("a run handle stops only that run: its parallel sibling goes on", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await parentAgent(harness, a);
    const created = await twoHeld(a, parent, "parallel", "S");
    const [r1, r2] = created.runs as Msg[];
    await llm().waitForHold("S1");
    await runState(a, r1?.run_id, "active");
    const stopped = await a.ok({ type: "subagent.stop", parent_agent_id: parent, handle: "Ada" });
    expect(stopped).toEqual({
      cancelled: [{ run_id: r1?.run_id, agent_id: r1?.agent_id, state: "cancelled" }],
      job_id: created.job_id,
    });
    await llm().waitForHold("S2");
    llm().release("S2");
    const waited = await a.ok({ type: "subagent.wait", parent_agent_id: parent, handles: [created.job_id] });
    expect(waited.runs.map((r: Msg) => r.state)).toEqual(["cancelled", "completed"]);
    // Stopping a terminal run cancels nothing; the durable records stay.
    const again = await a.ok({ type: "subagent.stop", parent_agent_id: parent, handle: r2?.run_id });
    expect(again.cancelled).toEqual([]);
    const listed = await a.ok({ type: "agent.list" });
    expect(listed.agents.map((x: Msg) => x.agent_id)).toContain(r1?.agent_id);
  });

  test("a job handle stops the whole job: the active chain step and the queued one", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await parentAgent(harness, a);
    const created = await twoHeld(a, parent, "chain", "J");
    const [r1, r2] = created.runs as Msg[];
    await llm().waitForHold("J1");
    const stopped = await a.ok({ type: "subagent.stop", parent_agent_id: parent, handle: created.job_id });
    expect(stopped.cancelled.map((c: Msg) => [c.run_id, c.state])).toEqual([
      [r1?.run_id, "cancelled"],
      [r2?.run_id, "cancelled"],
    ]);
    const status = await a.ok({ type: "subagent.status", parent_agent_id: parent });
    expect(status.jobs[0]).toMatchObject({ state: "cancelled", stopped_at: expect.any(Number) });
    expect(llm().requests.some((r) => JSON.stringify(r.body).includes("TASK-J2"))).toBe(false);
  });
});
