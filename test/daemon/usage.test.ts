/**
 * The daemon's cost ledger and the limits it owns (docs/usage.md), with real runtimes on the mock
 * LLM server: every call lands in `usage/ledger.jsonl` and `daemon.usage` sums it per agent,
 * model, job and workspace, across a daemon restart; an unpriced model's cost is null (unknown);
 * the daily cap stops a turn at its next provider boundary and refuses every agent's prompts;
 * a job's budget fails its runs and the parent's report says why.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { parentAgent, runState } from "./subagents/support.ts";
import type { Msg } from "./support/daemon-client.ts";
import { useDaemonHarnesses } from "./support/daemon-harness.ts";

setDefaultTimeout(90_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);

/** mock/chat: $1 per million input tokens, so this call costs $1. */
const DOLLAR = { input: 1_000_000, output: 0 };

function row(result: Msg, key: string): Msg | undefined {
  return result.rows.find((r: Msg) => r.key === key);
}

describe("the cost ledger", () => {
  test("per agent, model and workspace totals survive a restart; an unpriced model is unknown", async () => {
    const home = mockHome(llm().url, [{ id: "unpriced", context_window: 100_000, max_output: 4096 }]);
    const first = await startHarness({ home });
    const a = await first.unixClient();
    const otherCwd = tempDir("cwd-other");
    const one = await first.createAgent(a, { name: "one" });
    const two = await first.createAgent(a, { cwd: otherCwd, model: "mock/unpriced" });
    for (const [agent, usage] of [
      [one, DOLLAR],
      [one, { input: 500_000, output: 0 }],
      [two, DOLLAR],
    ] as const) {
      await a.ok({ type: "agent.attach", agent_id: agent });
      llm().enqueue({ steps: [{ text: "ok" }], usage });
      const from = a.messages.length;
      await a.ok({ type: "prompt", agent_id: agent, message: "work" });
      await a.waitAgent(agent, "turn_end", from);
    }
    const byAgent = await a.ok({ type: "daemon.usage", by: "agent" });
    expect(row(byAgent, one)).toMatchObject({ label: "one", calls: 2, cost_usd: 1.5, unpriced_calls: 0 });
    expect(row(byAgent, two)).toMatchObject({ calls: 1, cost_usd: null, unpriced_calls: 1 });
    expect(byAgent.total).toMatchObject({ calls: 3, cost_usd: 1.5, unpriced_calls: 1 });
    const lines = readFileSync(join(home, "usage", "ledger.jsonl"), "utf8")
      .trim()
      .split("\n");
    const entry = JSON.parse(lines[0] ?? "{}");
    expect(entry).toMatchObject({ agent_id: one, model: "mock/chat", cost_usd: 1, workspace: first.cwd });
    expect(entry.session_id).toMatch(/./);
    expect(entry.turn_id).toMatch(/^turn_/);
    await first.stop();

    const second = await startHarness({ home });
    const b = await second.unixClient();
    const again = await b.ok({ type: "daemon.usage", by: "agent" });
    expect(again.rows).toEqual(byAgent.rows);
    const byModel = await b.ok({ type: "daemon.usage", by: "model" });
    expect(row(byModel, "mock/chat")).toMatchObject({ calls: 2, cost_usd: 1.5 });
    expect(row(byModel, "mock/unpriced")).toMatchObject({ calls: 1, cost_usd: null });
    const byWorkspace = await b.ok({ type: "daemon.usage", by: "workspace" });
    expect(row(byWorkspace, otherCwd)).toMatchObject({ calls: 1, cost_usd: null });
    const bad = await b.request({ type: "daemon.usage", since: "yesterday" });
    expect(bad.success).toBe(false);
    expect(bad.error.code).toBe("INVALID_REQUEST");
  });

  test("compaction keeps the daily totals of past days and drops nothing", async () => {
    const home = mockHome(llm().url);
    const old = Date.UTC(2026, 0, 10, 12);
    const entry = (ts: number, agent: string, cost: number | null) =>
      JSON.stringify({
        ts,
        agent_id: agent,
        model: "mock/chat",
        workspace: "/w",
        input: 10,
        output: 1,
        cost_usd: cost,
      });
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(home, "usage"), { recursive: true });
    writeFileSync(
      join(home, "usage", "ledger.jsonl"),
      `${[entry(old, "agent-a", 2), entry(old + 1000, "agent-a", 1), entry(old, "agent-b", null)].join("\n")}\n{"torn`,
    );
    const harness = await startHarness({ home });
    const a = await harness.unixClient();
    // The start compacted those days: the ledger is empty, the totals are in daily.json.
    expect(readFileSync(join(home, "usage", "ledger.jsonl"), "utf8")).toBe("");
    const daily = JSON.parse(readFileSync(join(home, "usage", "daily.json"), "utf8"));
    expect(daily.compacted_through).toBe("2026-01-10");
    const byDay = await a.ok({ type: "daemon.usage", since: old - 1000, by: "day" });
    expect(byDay.rows).toEqual([
      { key: "2026-01-10", calls: 3, input: 30, output: 3, cost_usd: 3, unpriced_calls: 1 },
    ]);
    const byAgent = await a.ok({ type: "daemon.usage", since: old - 1000, by: "agent" });
    expect(row(byAgent, "agent-b")).toMatchObject({ cost_usd: null, unpriced_calls: 1 });
  });
});

describe("the daily cap", () => {
  test("stops a multi-call turn at its next provider boundary, then refuses every agent's prompts", async () => {
    const harness = await startHarness({ dailyBudgetUsd: 1.5 });
    const a = await harness.unixClient();
    const one = await harness.createAgent(a);
    const two = await harness.createAgent(a);
    await a.ok({ type: "agent.attach", agent_id: one });
    await a.ok({ type: "agent.attach", agent_id: two });
    const base = llm().requests.length;
    const ls = { steps: [{ tool_call: { name: "ls", args: {} } }], usage: DOLLAR };
    llm().enqueue(ls, ls, { steps: [{ text: "never" }], usage: DOLLAR });
    const from = a.messages.length;
    await a.ok({ type: "prompt", agent_id: one, message: "list twice" });
    const end = await a.waitAgent(one, "turn_end", from);
    expect(end.end_reason).toBe("error");
    expect(llm().requests.length - base).toBe(2);
    const error = a.agentEvents(one, from).find((e) => e.type === "error");
    expect(error?.code).toBe("BUDGET_EXCEEDED");
    expect(error?.message).toContain("daily budget of $1.50");
    llm().clearQueue();

    const refused = await a.request({ type: "prompt", agent_id: two, message: "my turn" });
    expect(refused.success).toBe(false);
    expect(refused.error.code).toBe("BUDGET_EXCEEDED");
    const usage = await a.ok({ type: "daemon.usage", by: "agent" });
    expect(usage.daily_budget).toEqual({ budget_usd: 1.5, spent_usd: 2 });
  });
});

describe("a job's budget", () => {
  test("fails the job's runs with BUDGET_EXCEEDED, and the parent's report says so", async () => {
    const harness = await startHarness({ maxSubagentRuns: 1 });
    const a = await harness.unixClient();
    const parent = await parentAgent(harness, a);
    await a.ok({ type: "agent.attach", agent_id: parent });
    const ls = { steps: [{ tool_call: { name: "ls", args: {} } }], usage: DOLLAR };
    llm().enqueue(
      { when: "TASK-FIRST", ...ls },
      { when: "TASK-FIRST", steps: [{ text: "never" }], usage: DOLLAR },
    );
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      tasks: [
        { name: "first", task: "TASK-FIRST spend" },
        { name: "second", task: "TASK-SECOND spend" },
      ],
      strategy: "parallel",
      budget_usd: 0.5,
    });
    const [first, second] = created.runs as Msg[];
    const failed = await runState(a, first?.run_id, "failed");
    expect(failed.error).toContain("budget of subagent job");
    // The second run never spends: the job's budget is gone before it starts.
    const secondFailed = await runState(a, second?.run_id, "failed");
    expect(secondFailed.error).toContain("budget of subagent job");
    expect(llm().requests.filter((r) => JSON.stringify(r.body).includes("TASK-SECOND"))).toEqual([]);
    const waited = await a.ok({ type: "subagent.wait", parent_agent_id: parent, handles: [created.job_id] });
    expect(waited.runs.map((r: Msg) => r.state)).toEqual(["failed", "failed"]);
    // The parent's session got the report, naming the reason.
    const report = await a.waitFor(
      (m) =>
        m.agent_id === parent &&
        m.type === "message_complete" &&
        JSON.stringify(m.message).includes("budget of subagent job"),
    );
    expect(JSON.stringify(report.message)).toContain("failed");
    const byJob = await a.ok({ type: "daemon.usage", by: "job" });
    expect(row(byJob, created.job_id)).toMatchObject({ calls: 1, cost_usd: 1 });
  });
});
