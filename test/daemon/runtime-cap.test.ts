/**
 * The cap on live runtimes (`shard daemon --max-runtimes`, docs/daemon.md): past it the oldest
 * idle runtime is stopped (its agent stays durable), and with none idle a start fails with an
 * error that names the cap and the flag. Subagent runs' children hold slots like any runtime.
 * Real daemon, real runtimes, the mock model.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { runState } from "./subagents/support.ts";
import type { DaemonClient, Msg } from "./support/daemon-client.ts";
import { useDaemonHarnesses } from "./support/daemon-harness.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);

function stopped(client: DaemonClient, agentId: string, from: number): Promise<Msg> {
  return client.waitFor(
    (m) => m.type === "agent_status_changed" && m.agent_id === agentId && m.runtime_state === "stopped",
    from,
  );
}

/** Attaches and starts a turn that streams, then waits at `hold` until released. */
async function holdBusy(client: DaemonClient, agentId: string, hold: string): Promise<void> {
  await client.ok({ type: "agent.attach", agent_id: agentId });
  llm().enqueue({ steps: [{ text: "working" }, { hold, timeout_ms: 120_000 }] });
  const from = client.messages.length;
  await client.ok({ type: "prompt", agent_id: agentId, message: "long job" });
  await client.waitAgent(agentId, "message_delta", from);
}

async function runtimeStates(client: DaemonClient): Promise<Record<string, string>> {
  const { agents } = await client.ok({ type: "agent.list" });
  return Object.fromEntries(agents.map((a: Msg) => [a.agent_id, a.runtime_state]));
}

describe("--max-runtimes 2", () => {
  test("a third start stops the oldest idle runtime; its agent stays and attach brings it back", async () => {
    const harness = await startHarness({ maxRuntimes: 2 });
    const a = await harness.unixClient();
    const first = await harness.createAgent(a);
    const second = await harness.createAgent(a);
    expect(await runtimeStates(a)).toEqual({ [first]: "running", [second]: "running" });

    let from = a.messages.length;
    const third = await harness.createAgent(a);
    // The oldest idle one made room: stopped as asked, not a crash.
    await stopped(a, first, from);
    expect(await runtimeStates(a)).toEqual({ [first]: "stopped", [second]: "running", [third]: "running" });
    expect(a.messages.some((m) => m.type === "agent_exited")).toBe(false);

    // The stopped agent is durable: attaching restores it, and now `second` is the oldest idle.
    from = a.messages.length;
    const attached = await a.ok({ type: "agent.attach", agent_id: first });
    expect(attached.info.runtime_state).toBe("running");
    await stopped(a, second, from);
    expect(await runtimeStates(a)).toEqual({ [first]: "running", [second]: "stopped", [third]: "running" });
    // And it works: a turn on the restored runtime.
    from = a.messages.length;
    await a.ok({ type: "prompt", agent_id: first, message: "are you back?" });
    await a.waitAgent(first, "turn_end", from);
  });

  test("with no runtime idle, a start fails naming the cap and --max-runtimes; it succeeds once one is idle", async () => {
    const harness = await startHarness({ maxRuntimes: 2 });
    const a = await harness.unixClient();
    const busy = [await harness.createAgent(a), await harness.createAgent(a)];
    for (const agentId of busy) {
      await a.ok({ type: "agent.attach", agent_id: agentId });
      llm().enqueue({ steps: [{ text: "working" }, { hold: "busy" }] });
      const from = a.messages.length;
      await a.ok({ type: "prompt", agent_id: agentId, message: "long job" });
      await a.waitAgent(agentId, "message_delta", from);
    }

    const refused = await a.request({ type: "agent.create", cwd: harness.cwd, model: "mock/chat" });
    expect(refused.success).toBe(false);
    expect(refused.error.code).toBe("RUNTIME_START_FAILED");
    expect(refused.error.message).toContain("2 runtimes are live, the cap");
    expect(refused.error.message).toContain("--max-runtimes 2");
    // Like any start failure, the identity is kept: attach retries the start.
    const waiting: string = refused.error.data.agent_id;
    const again = await a.request({ type: "agent.attach", agent_id: waiting });
    expect(again.error.code).toBe("RUNTIME_START_FAILED");
    expect(again.error.message).toContain("--max-runtimes 2");
    // Nothing was stopped to make room: both turns are still running.
    expect(await runtimeStates(a)).toEqual({
      [busy[0]!]: "running",
      [busy[1]!]: "running",
      [waiting]: "stopped",
    });

    const from = a.messages.length;
    expect(llm().release("busy")).toBe(2);
    for (const agentId of busy) await a.waitAgent(agentId, "status", from, (m) => m.status === "idle");
    const retried = await a.ok({ type: "agent.attach", agent_id: waiting });
    expect(retried.info.runtime_state).toBe("running");
    // One of the two (whichever went idle first) made room.
    const states = await runtimeStates(a);
    expect(states[waiting]).toBe("running");
    expect(busy.map((id) => states[id]).sort()).toEqual(["running", "stopped"]);
  });
});

describe("--max-runtimes 2 and subagent runs", () => {
  test("a run's child counts toward the cap: a run that finds it full of busy runtimes fails naming it, and a running child keeps a create out", async () => {
    const harness = await startHarness({ maxRuntimes: 2 });
    const a = await harness.unixClient();
    const parent = await harness.createAgent(a, { name: "parent" });
    const other = await harness.createAgent(a, { name: "other" });
    await holdBusy(a, parent, "parent");
    await holdBusy(a, other, "other");
    // The runs' reports reach the parent as steers into its held turn, which never asks the model again.

    // Both slots hold busy runtimes: the run's child cannot start, and the run says why.
    const full = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "full",
      task: "TASK-FULL",
    });
    const failed = await runState(a, full.runs[0].run_id, "failed");
    expect(failed.error).toContain("2 runtimes are live, the cap");
    expect(failed.error).toContain("--max-runtimes 2");
    expect(llm().requests.some((r) => JSON.stringify(r.body).includes("TASK-FULL"))).toBe(false);

    // Once `other` is idle, a run's child starts in its place (the oldest idle runtime stops).
    let from = a.messages.length;
    llm().release("other");
    await a.waitAgent(other, "status", from, (m) => m.status === "idle");
    llm().enqueue({
      when: "TASK-CHILD",
      steps: [{ hold: "child", timeout_ms: 120_000 }, { text: "child done" }],
    });
    from = a.messages.length;
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "child",
      task: "TASK-CHILD",
    });
    const run: Msg = created.runs[0];
    await llm().waitForHold("child");
    await runState(a, run.run_id, "active", from);
    expect(await runtimeStates(a)).toMatchObject({
      [parent]: "running",
      [other]: "stopped",
      [run.agent_id]: "running",
    });

    // Parent and child are the two live runtimes, both busy: a create is refused.
    const refused = await a.request({ type: "agent.create", cwd: harness.cwd, model: "mock/chat" });
    expect(refused.error.code).toBe("RUNTIME_START_FAILED");
    expect(refused.error.message).toContain("2 runtimes are live, the cap");
    expect(refused.error.message).toContain("--max-runtimes 2");

    from = a.messages.length;
    llm().release("child");
    await runState(a, run.run_id, "completed", from);
  });
});
