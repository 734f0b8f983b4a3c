/**
 * The lease guard's strict path for a client's own steer of a leased child, the waits a parent's
 * abort ends, and what children inherit from their parent: its mode now (not at creation, and
 * still after a daemon restart), its plan-mode restrictions and its tool set.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mockHome } from "../../agent/support/agent-process.ts";
import { useMockLlmServer } from "../../support/mock-llm/use-mock-llm-server.ts";
import type { Msg } from "../support/daemon-client.ts";
import { DaemonProcess, useDaemonHarnesses, useDaemonProcesses } from "../support/daemon-harness.ts";
import { heldRun, jobFiles, relaunchAndWait } from "./support.ts";

setDefaultTimeout(90_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);
const processes = useDaemonProcesses();

const bodyWith = (marker: string) =>
  llm()
    .requests.map((r) => JSON.stringify(r.body))
    .filter((body) => body.includes(marker));

describe("a client's own steer of a leased child", () => {
  test("reaches the run's active turn: queued with the run and a correlation id, then in the run's answer", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await harness.createAgent(a);
    llm().enqueue(
      { when: "TASK-DS", steps: [{ hold: "ds" }, { text: "first part" }] },
      { when: "HUMAN-STEER", steps: [{ text: "answer after the human's steer" }] },
    );
    const run = await heldRun(llm, a, parent, "TASK-DS", "ds");
    const human = await harness.unixClient();
    await human.ok({ type: "agent.attach", agent_id: run.agent_id });
    // The prompt form of a steer takes the same path as the steer command.
    const steered = await human.request({
      type: "prompt",
      agent_id: run.agent_id,
      message: "HUMAN-STEER: be brief",
      streaming_behavior: "steer",
    });
    expect(steered.success).toBe(true);
    expect(steered.data).toMatchObject({ queued: "steer", run_id: run.run_id });
    expect(steered.data.correlation_id).toBeString();
    llm().release("ds");
    const waited = await a.ok({ type: "subagent.wait", parent_agent_id: parent, handles: [run.run_id] });
    expect(waited.runs[0]).toMatchObject({
      state: "completed",
      final_text: "answer after the human's steer",
    });
    // Delivered inside the run's turn: no new turn began, and one model call carried the steer.
    const seen = human.agentEvents(run.agent_id).map((e) => e.type);
    expect(seen.filter((t) => t === "turn_start")).toHaveLength(0);
    expect(seen.filter((t) => t === "turn_end")).toHaveLength(1);
    expect(bodyWith("HUMAN-STEER")).toHaveLength(1);
  });

  test("a steer the run's turn never takes is dropped, and the child's clients are told; it never runs later", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await harness.createAgent(a);
    llm().enqueue({ when: "TASK-DL", steps: [{ hold: "dl" }, { text: "never finished" }] });
    const run = await heldRun(llm, a, parent, "TASK-DL", "dl");
    const human = await harness.unixClient();
    await human.ok({ type: "agent.attach", agent_id: run.agent_id });
    const from = human.messages.length;
    const steered = await human.ok({ type: "steer", agent_id: run.agent_id, message: "LOST-HUMAN-STEER" });
    expect(steered.queued).toBe("steer");
    // The run ends with no provider boundary after the steer: it is stopped.
    await a.ok({ type: "subagent.stop", parent_agent_id: parent, handle: run.run_id });
    const told = await human.waitAgent(
      run.agent_id,
      "error",
      from,
      (e) => e.code === "CONFLICT" && String(e.message).includes(steered.correlation_id),
    );
    expect(told.fatal).toBe(false);
    expect(told.message).toContain("dropped");

    llm().enqueue({ when: "TASK-DL2", steps: [{ text: "fresh work" }] });
    const relaunched = await relaunchAndWait(a, parent, run.agent_id, "TASK-DL2");
    expect(relaunched).toMatchObject({ state: "completed", final_text: "fresh work" });
    expect(bodyWith("TASK-DL2").join("")).not.toContain("LOST-HUMAN-STEER");
  });
});

describe("subagent.wait and the parent's abort", () => {
  test("aborting the parent ends its waits with CONFLICT; the run goes on and completes", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const waiter = await harness.unixClient();
    const parent = await harness.createAgent(a);
    await a.ok({ type: "agent.attach", agent_id: parent });
    llm().enqueue({ when: "TASK-WA", steps: [{ hold: "wa" }, { text: "finished anyway" }] });
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "wa",
      task: "TASK-WA",
    });
    const run: Msg = created.runs[0];
    await llm().waitForHold("wa");
    const waiting = waiter.request({ type: "subagent.wait", parent_agent_id: parent, handles: [run.run_id] });
    // The status answer on the same connection comes after the wait was accepted (answered in order).
    await waiter.ok({ type: "subagent.status", parent_agent_id: parent, targets: [run.run_id] });
    await a.ok({ type: "abort", agent_id: parent });
    const cancelled = await waiting;
    expect(cancelled.success).toBe(false);
    expect(cancelled.error.code).toBe("CONFLICT");
    expect(cancelled.error.message).toContain("aborted");
    llm().release("wa");
    const done = await a.ok({ type: "subagent.wait", parent_agent_id: parent, handles: [run.run_id] });
    expect(done.runs[0]).toMatchObject({ state: "completed", final_text: "finished anyway" });
  });
});

describe("what children inherit", () => {
  test("the parent's mode now: a set_mode after creation counts, and survives a daemon restart", async () => {
    const home = mockHome(llm().url);
    const first = new DaemonProcess(home);
    processes.push(first);
    await first.url();
    const a = await first.client();
    const parent = (await a.ok({ type: "agent.create", cwd: home, model: "mock/chat" })).agent_id;
    await a.ok({ type: "agent.attach", agent_id: parent });
    await a.ok({ type: "set_mode", agent_id: parent, mode: "plan" });
    await a.ok({ type: "agent.terminate", agent_id: parent });
    await a.waitFor(
      (m) => m.type === "agent_status_changed" && m.agent_id === parent && m.runtime_state === "stopped",
    );
    first.kill();
    await first.exited;

    const second = new DaemonProcess(home);
    processes.push(second);
    await second.url();
    const b = await second.client();
    const listed = await b.ok({ type: "agent.list" });
    expect(listed.agents.find((x: Msg) => x.agent_id === parent)?.mode).toBe("plan");
    llm().enqueue({ when: "TASK-MODE", steps: [{ text: "planned" }] });
    const created = await b.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "m",
      task: "TASK-MODE",
    });
    const run: Msg = created.runs[0];
    await b.ok({ type: "subagent.wait", parent_agent_id: parent, handles: [run.run_id] });
    const child = (await b.ok({ type: "agent.list" })).agents.find((x: Msg) => x.agent_id === run.agent_id);
    expect(child?.mode).toBe("plan");
    // The child's model was told it is in plan mode.
    expect(bodyWith("TASK-MODE").join("")).toContain("You are in plan mode");
  });

  test("a parent in plan mode cannot launch a child in build mode: PERMISSION_DENIED, nothing written", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await harness.createAgent(a, { mode: "plan" });
    const refused = await a.request({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "escape",
      task: "write files",
      mode: "build",
    });
    expect(refused.error.code).toBe("PERMISSION_DENIED");
    expect(refused.error.message).toContain('"plan"');
    expect(jobFiles(harness.home)).toEqual([]);
  });

  test("the parent's model, in plan mode, cannot use the subagent tool to get around it", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await harness.createAgent(a, { mode: "plan" });
    await a.ok({ type: "agent.attach", agent_id: parent });
    llm().enqueue(
      {
        steps: [
          {
            tool_call: {
              name: "subagent",
              args: { action: "create", tasks: [{ name: "w", task: "TASK-PLAN-ESCAPE" }] },
            },
          },
        ],
      },
      { steps: [{ text: "could not delegate" }] },
    );
    const from = a.messages.length;
    await a.ok({ type: "prompt", agent_id: parent, message: "delegate the edit" });
    const result = await a.waitAgent(parent, "tool_result", from);
    expect(result.is_error).toBe(true);
    await a.waitAgent(parent, "turn_end", from);
    expect(await a.ok({ type: "subagent.status", parent_agent_id: parent })).toEqual({
      agents: [],
      jobs: [],
    });
    expect(jobFiles(harness.home)).toEqual([]);
  });

  test("the parent's tool set: a child of a parent limited to read and ls offers its model only those", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await harness.createAgent(a, { tools: ["read", "ls"] });
    llm().enqueue({ when: "TASK-TOOLS", steps: [{ text: "looked" }] });
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "t",
      task: "TASK-TOOLS",
    });
    await a.ok({ type: "subagent.wait", parent_agent_id: parent, handles: [created.job_id] });
    const request = llm().requests.find((r) => JSON.stringify(r.body).includes("TASK-TOOLS"));
    const offered = (request?.body.tools ?? []) as Msg[];
    const tools = offered.map((t) => t.function?.name ?? t.name).sort();
    expect(tools).toEqual(["ls", "read"]);
  });
});
