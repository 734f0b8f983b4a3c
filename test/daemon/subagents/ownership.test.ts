/**
 * What never crosses (docs/protocol.md §10.4): a parent sees and touches only its own jobs and
 * children; task text appears in no response, event, AgentInfo or log; a leased child takes no
 * direct prompt; the parent gets each run's completion report — as a prompt that wakes it when
 * idle, as a steer into its turn when busy.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { useMockLlmServer } from "../../support/mock-llm/use-mock-llm-server.ts";
import type { Msg } from "../support/daemon-client.ts";
import { useDaemonHarnesses } from "../support/daemon-harness.ts";
import { jobFiles, parentAgent, runState } from "./support.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);

function logsUnder(dir: string): string {
  let out = "";
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out += readFileSync(join(entry.parentPath, entry.name), "utf8");
  }
  return out;
}

describe("fields only the daemon sets", () => {
  for (const transport of ["unix", "websocket"] as const) {
    test(`agent.create over ${transport} refuses parent_agent_id, depth, launch_policy and alias; the caps hold`, async () => {
      const harness = await startHarness();
      const a = await harness.client(transport);
      const victim = await parentAgent(harness, a);
      const attempts: Record<string, unknown>[] = [
        { parent_agent_id: victim },
        { depth: 0 },
        { launch_policy: { maxTasks: 20, maxDepth: 9 } },
        { alias: "ada" },
      ];
      for (const fields of attempts) {
        const res = await a.request({
          type: "agent.create",
          cwd: harness.cwd,
          model: "mock/chat",
          ...fields,
        });
        const [field] = Object.keys(fields);
        expect({ field, code: res.error?.code }).toEqual({ field, code: "INVALID_REQUEST" });
        expect(res.error.message).toContain(`"${field}"`);
      }
      // Nothing was created: no fake child under the victim, no agent with lifted caps.
      const listed = await a.ok({ type: "agent.list" });
      expect(listed.agents.map((x: Msg) => x.agent_id)).toEqual([victim]);
      // And a 20-task job is refused by the launch policy a client could not raise.
      const task = { name: "t", task: "never run" };
      const big = await a.request({
        type: "subagent.create",
        parent_agent_id: victim,
        tasks: Array(20).fill(task),
        strategy: "parallel",
      });
      expect(big.error?.code).toBe("PERMISSION_DENIED");
      expect(jobFiles(harness.home)).toEqual([]);
    });
  }
});

describe("ownership, privacy and the lease", () => {
  test("another parent gets NOT_FOUND for every handle of the first parent's job", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parentA = await parentAgent(harness, a);
    const parentB = await parentAgent(harness, a);
    llm().enqueue({ when: "TASK-OWN", steps: [{ hold: "own" }, { text: "mine" }] });
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parentA,
      name: "own",
      task: "TASK-OWN",
    });
    const run = created.runs[0];
    for (const handle of [created.job_id, run.run_id, run.agent_id, "ada"]) {
      for (const command of [
        { type: "subagent.wait", handles: [handle], timeout: 0 },
        { type: "subagent.status", targets: [handle] },
        { type: "subagent.stop", handle },
      ]) {
        const res = await a.request({ ...command, parent_agent_id: parentB });
        expect({ handle, command: command.type, code: res.error?.code }).toEqual({
          handle,
          command: command.type,
          code: "NOT_FOUND",
        });
      }
    }
    const statusB = await a.ok({ type: "subagent.status", parent_agent_id: parentB });
    expect(statusB).toEqual({ agents: [], jobs: [] });
    // B's own child gets the same first alias: aliases are per parent, and "ada" resolves per parent.
    llm().enqueue({ when: "TASK-OTHER", steps: [{ text: "theirs" }] });
    const other = await a.ok({
      type: "subagent.create",
      parent_agent_id: parentB,
      name: "other",
      task: "TASK-OTHER",
    });
    expect(other.runs[0].alias).toBe("ada");
    const waitedB = await a.ok({ type: "subagent.wait", parent_agent_id: parentB, handles: ["ada"] });
    expect(waitedB.runs[0]).toMatchObject({ run_id: other.runs[0].run_id, final_text: "theirs" });
    llm().release("own");
    await runState(a, run.run_id, "completed");
  });

  test("a leased child refuses a direct prompt (CONFLICT) until its run ends", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await parentAgent(harness, a);
    llm().enqueue({ when: "TASK-LEASE", steps: [{ hold: "lease" }, { text: "leased done" }] });
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "l",
      task: "TASK-LEASE",
    });
    const child = created.runs[0].agent_id;
    await llm().waitForHold("lease");
    await a.ok({ type: "agent.attach", agent_id: child, role: "observer" });
    const direct = await a.request({ type: "prompt", agent_id: child, message: "do something else" });
    expect(direct.error.code).toBe("CONFLICT");
    expect(direct.error.message).toContain(created.runs[0].run_id);
    llm().release("lease");
    await runState(a, created.runs[0].run_id, "completed");
    // The finished child's runtime stops; attaching restores it, and now it takes prompts.
    await a.waitFor(
      (m) => m.type === "agent_status_changed" && m.agent_id === child && m.runtime_state === "stopped",
    );
    await a.ok({ type: "agent.detach", agent_id: child });
    await a.ok({ type: "agent.attach", agent_id: child });
    const after = await a.request({ type: "prompt", agent_id: child, message: "now you may" });
    expect(after.success).toBe(true);
  });

  test("a direct abort of a leased child is recorded against its run: cancelled", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await parentAgent(harness, a);
    llm().enqueue({ when: "TASK-ABORT", steps: [{ hold: "abort" }, { text: "never" }] });
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "ab",
      task: "TASK-ABORT",
    });
    const run = created.runs[0];
    await llm().waitForHold("abort");
    await runState(a, run.run_id, "active");
    await a.ok({ type: "agent.attach", agent_id: run.agent_id });
    await a.ok({ type: "abort", agent_id: run.agent_id });
    const ended = await runState(a, run.run_id, "cancelled");
    expect(ended.error).toContain("aborted by a client");
  });

  test("task text is in no response, event, AgentInfo or log; the idle parent is woken with the report", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const bystander = await harness.wsClient();
    const parent = await parentAgent(harness, a);
    await a.ok({ type: "agent.attach", agent_id: parent });
    const secret = "SECRET-TASK-7f3a";
    llm().enqueue({ when: secret, steps: [{ text: "the public answer" }] });
    const from = a.messages.length;
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      tasks: [{ name: "private-work", task: `${secret} do the thing` }],
      strategy: "parallel",
    });
    const runId = created.runs[0].run_id;
    await a.ok({ type: "subagent.wait", parent_agent_id: parent, handles: [runId] });
    // The idle parent is prompted with the report: its turn shows it, final text and all.
    const report = await a.waitAgent(
      parent,
      "message_complete",
      from,
      (m) => m.message.role === "user" && JSON.stringify(m.message).includes("subagent_report"),
    );
    const reportText = JSON.stringify(report.message);
    expect(reportText).toContain(runId);
    expect(reportText).toContain("the public answer");
    await a.waitAgent(parent, "turn_end", from);
    await a.ok({ type: "subagent.status", parent_agent_id: parent });
    await a.ok({ type: "subagent.status", parent_agent_id: parent, targets: [runId] });
    const listed = await bystander.ok({ type: "agent.list" });
    expect(JSON.stringify(listed)).toContain(created.runs[0].agent_id);
    const seen = JSON.stringify([a.messages, bystander.messages]);
    expect(seen).toContain("subagent_run_changed");
    expect(seen).not.toContain(secret);
    expect(logsUnder(join(harness.home, "logs"))).not.toContain(secret);
    // The parent's own model never saw the task either.
    const parentRequests = llm().requests.filter((r) =>
      JSON.stringify(r.body).includes("<subagent_report job_id="),
    );
    expect(parentRequests.length).toBeGreaterThan(0);
    for (const r of parentRequests) expect(JSON.stringify(r.body)).not.toContain(secret);
    // The durable record is the one place it lives.
    expect(readFileSync(join(harness.home, "jobs", `${created.job_id}.json`), "utf8")).toContain(secret);
  });

  test("a report that arrives mid-turn is steered into the parent's running turn", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await parentAgent(harness, a);
    await a.ok({ type: "agent.attach", agent_id: parent });
    llm().enqueue(
      { when: "PARENT-GO", steps: [{ hold: "parent" }, { text: "parent thinking" }] },
      { when: "TASK-QUICK", steps: [{ text: "quick answer" }] },
    );
    const from = a.messages.length;
    await a.ok({ type: "prompt", agent_id: parent, message: "PARENT-GO" });
    await llm().waitForHold("parent");
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "q",
      task: "TASK-QUICK",
    });
    await runState(a, created.runs[0].run_id, "completed");
    llm().release("parent");
    // The same turn goes on with the report: it is delivered before that turn ends.
    const end = await a.waitAgent(parent, "turn_end", from);
    const turn = a.agentEvents(parent, from).filter((m: Msg) => m.seq <= end.seq);
    expect(turn.filter((m: Msg) => m.type === "turn_start")).toHaveLength(1);
    const delivered = turn.find(
      (m: Msg) =>
        m.type === "message_complete" &&
        m.message.role === "user" &&
        JSON.stringify(m.message).includes("quick answer"),
    );
    expect(delivered).toBeDefined();
  });
});
