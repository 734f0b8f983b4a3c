/**
 * An agent's budget against a real `shard agent` and the mock LLM server (docs/usage.md): a
 * turn that spends it stops at the next provider boundary with BUDGET_EXCEEDED, later prompts
 * are refused with that code, `set_budget` raises it only once the person allows it, and a
 * resumed runtime keeps what was spent. An unpriced model's cost is unknown, never 0.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { MockReply } from "../support/mock-llm/types.ts";
import { mockHome } from "./support/agent-process.ts";
import { activeSession, answerNextPermission, sessionFile } from "./support/events.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

const { llm, spawn } = useAgentHarness();

/** mock/chat costs $1 per million input tokens: each of these calls costs $1. */
const DOLLAR = { input: 1_000_000, output: 0 };

function lsCall(): MockReply {
  return { steps: [{ tool_call: { name: "ls", args: {} } }], usage: DOLLAR };
}

describe("budget_usd", () => {
  test("a multi-call turn stops at the provider boundary after the budget is spent; set_budget resumes", async () => {
    const agent = await spawn({ args: ["--budget-usd", "1.5"] });
    expect(agent.events.find((e) => e.type === "sync")?.budget).toEqual({ budget_usd: 1.5, spent_usd: 0 });
    const base = llm().requests.length;
    // Three calls are queued; the budget lets only two happen.
    llm().enqueue(lsCall(), lsCall(), { steps: [{ text: "third call" }], usage: DOLLAR });
    const from = agent.events.length;
    const accepted = await agent.request({ type: "prompt", message: "list twice" });
    expect(accepted.success).toBe(true);
    const events = await agent.waitTurnEnd(from);

    expect(llm().requests.length - base).toBe(2);
    // Both tool calls ran: the turn stopped at the boundary, not in the middle of one.
    expect(events.filter((e) => e.type === "tool_result")).toHaveLength(2);
    const error = events.find((e) => e.type === "error");
    expect(error?.code).toBe("BUDGET_EXCEEDED");
    expect(error?.message).toContain("$1.50");
    expect(events.find((e) => e.type === "turn_end")?.end_reason).toBe("error");
    const budget = events.findLast((e) => e.type === "budget_changed")?.budget;
    expect(budget.spent_usd).toBeCloseTo(2, 10);
    expect(budget.exceeded.scope).toBe("agent");
    // Each call is in the session file with its turn, model and cost.
    const sessionId = await activeSession(agent);
    const usageLines = readFileSync(sessionFile(agent.home, sessionId), "utf8")
      .split("\n")
      .filter((l) => l.includes('"type":"usage"'))
      .map((l) => JSON.parse(l));
    expect(usageLines.map((u) => [u.model, u.cost_usd])).toEqual([
      ["mock/chat", 1],
      ["mock/chat", 1],
    ]);
    expect(usageLines[0].turn_id).toBe(events.find((e) => e.type === "turn_start")?.turn_id);

    // Later prompts are refused with the same code.
    const refused = await agent.request({ type: "prompt", message: "one more" });
    expect(refused.success).toBe(false);
    expect(refused.error.code).toBe("BUDGET_EXCEEDED");

    // A raise asks the person; a deny keeps the budget.
    const askedAt = agent.events.length;
    const pending = await agent.request({ type: "set_budget", budget_usd: 5 });
    expect(pending.success).toBe(true);
    expect(pending.data.pending).toBe(true);
    const denied = await answerNextPermission(agent, askedAt, "deny");
    expect(denied.tool_name).toBe("set_budget");
    await agent.barrier();
    expect((await agent.request({ type: "prompt", message: "still refused" })).error.code).toBe(
      "BUDGET_EXCEEDED",
    );

    const againAt = agent.events.length;
    await agent.request({ type: "set_budget", budget_usd: 5 });
    await answerNextPermission(agent, againAt);
    const raised = await agent.waitFor(
      (e) => e.type === "budget_changed" && e.budget.budget_usd === 5,
      againAt,
    );
    expect(raised.budget.exceeded).toBeUndefined();
    llm().enqueue({ steps: [{ text: "back to work" }], usage: DOLLAR });
    const resumed = await agent.prompt("go on");
    expect(resumed.find((e) => e.type === "turn_end")?.end_reason).toBe("completed");
  });

  test("a lower budget applies at once, and a resumed runtime keeps what was spent", async () => {
    const agent = await spawn();
    llm().enqueue({ steps: [{ text: "one" }], usage: DOLLAR });
    await agent.prompt("spend a dollar");
    const lowered = await agent.request({ type: "set_budget", budget_usd: 0.5 });
    expect(lowered.data).toEqual({
      budget: {
        budget_usd: 0.5,
        spent_usd: 1,
        exceeded: expect.objectContaining({ scope: "agent" }),
      },
      pending: false,
    });
    const sessionId = await activeSession(agent);
    await agent.close();

    const again = await spawn({
      home: agent.home,
      cwd: agent.cwd,
      model: null,
      args: ["--session", sessionId],
    });
    expect(again.events.find((e) => e.type === "sync")?.budget).toEqual({
      budget_usd: 0.5,
      spent_usd: 1,
      exceeded: expect.objectContaining({ scope: "agent" }),
    });
    const refused = await again.request({ type: "prompt", message: "more" });
    expect(refused.error.code).toBe("BUDGET_EXCEEDED");
  });

  test("an unpriced model's cost is unknown, never 0", async () => {
    const home = mockHome(llm().url, [{ id: "free-to-guess", context_window: 100_000, max_output: 4096 }]);
    const agent = await spawn({ home, model: "mock/free-to-guess" });
    llm().enqueue({ steps: [{ text: "hi" }], usage: DOLLAR });
    const events = await agent.prompt("hello");
    const usage = events.find((e) => e.type === "usage");
    expect(usage?.cost).toBeUndefined();
    expect(usage?.cost_unknown).toBe(true);
    const turnEnd = events.find((e) => e.type === "turn_end");
    expect(turnEnd?.usage.cost).toBeUndefined();
    expect(turnEnd?.usage.cost_unknown).toBe(true);
    const sessionId = await activeSession(agent);
    const line = readFileSync(sessionFile(home, sessionId), "utf8")
      .split("\n")
      .find((l) => l.includes('"type":"usage"'));
    expect(JSON.parse(line ?? "{}").cost_usd).toBeNull();
  });
});
