/**
 * The model's `subagent` tool end to end: a parent on the mock model fans out two tasks through
 * the daemon socket (after a permission check like any other tool), finishes its turn, and is
 * woken with each child's completion report.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { useMockLlmServer } from "../../support/mock-llm/use-mock-llm-server.ts";
import type { Msg } from "../support/daemon-client.ts";
import { useDaemonHarnesses } from "../support/daemon-harness.ts";

setDefaultTimeout(90_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);

const fanOut = {
  action: "create",
  strategy: "parallel",
  tasks: [
    { name: "left", task: "TASK-LEFT add the left column" },
    { name: "right", task: "TASK-RIGHT add the right column" },
  ],
};

describe("the subagent tool", () => {
  test("the parent's model fans out work, keeps going, and receives both completion reports", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await harness.createAgent(a);
    await a.ok({ type: "agent.attach", agent_id: parent });
    llm().enqueue(
      { when: "FAN-OUT-NOW", steps: [{ tool_call: { name: "subagent", args: fanOut } }] },
      { when: "FAN-OUT-NOW", steps: [{ text: "dispatched both" }] },
      { when: "TASK-LEFT", steps: [{ hold: "left" }, { text: "left column added" }] },
      { when: "TASK-RIGHT", steps: [{ hold: "right" }, { text: "right column added" }] },
    );
    const from = a.messages.length;
    await a.ok({ type: "prompt", agent_id: parent, message: "FAN-OUT-NOW" });
    const ask = await a.waitAgent(parent, "permission_request", from);
    expect(ask.tool_name).toBe("subagent");
    await a.ok({
      type: "permission_response",
      agent_id: parent,
      request_id: ask.request_id,
      decision: "allow",
    });
    const result = await a.waitAgent(parent, "tool_result", from);
    expect(result.is_error).toBe(false);
    const created = result.content.value;
    expect(created.runs.map((r: Msg) => r.alias)).toEqual(["ada", "basil"]);
    // The parent's turn ends while the children work.
    await a.waitAgent(parent, "turn_end", from);
    // Both children hold their own reply (the parent's later calls, which quote the tasks in
    // its tool call, must not take them), then finish.
    await llm().waitForHold("left");
    await llm().waitForHold("right");
    llm().release("left");
    llm().release("right");

    // Each child's report reaches the parent's conversation as a user message.
    const reports: string[] = [];
    for (const run of created.runs as Msg[]) {
      const report = await a.waitAgent(
        parent,
        "message_complete",
        from,
        (m) => m.message.role === "user" && JSON.stringify(m.message).includes(run.run_id),
      );
      reports.push(JSON.stringify(report.message));
    }
    expect(reports.join("\n")).toContain("left column added");
    expect(reports.join("\n")).toContain("right column added");
    const status = await a.ok({ type: "subagent.status", parent_agent_id: parent });
    expect(status.jobs[0]).toMatchObject({ job_id: created.job_id, state: "completed" });
    const listed = await a.ok({ type: "agent.list" });
    const children = listed.agents.filter((x: Msg) => x.parent_agent_id === parent);
    expect(children.map((x: Msg) => x.alias).sort()).toEqual(["ada", "basil"]);
  });

  test("a denied call starts nothing", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await harness.createAgent(a);
    await a.ok({ type: "agent.attach", agent_id: parent });
    llm().enqueue(
      { when: "FAN-OUT-DENY", steps: [{ tool_call: { name: "subagent", args: fanOut } }] },
      { when: "FAN-OUT-DENY", steps: [{ text: "ok, not then" }] },
    );
    const from = a.messages.length;
    await a.ok({ type: "prompt", agent_id: parent, message: "FAN-OUT-DENY" });
    const ask = await a.waitAgent(parent, "permission_request", from);
    await a.ok({
      type: "permission_response",
      agent_id: parent,
      request_id: ask.request_id,
      decision: "deny",
    });
    const result = await a.waitAgent(parent, "tool_result", from);
    expect(result.is_error).toBe(true);
    await a.waitAgent(parent, "turn_end", from);
    const status = await a.ok({ type: "subagent.status", parent_agent_id: parent });
    expect(status).toEqual({ agents: [], jobs: [] });
  });
});
