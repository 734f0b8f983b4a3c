/**
 * Automatic compaction and recall through a real `shard agent` (docs/architecture.md §6.6,
 * docs/protocol.md §6): a small-context model plus scripted usage push the window over the
 * thresholds.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AgentProcess, type Msg, mockHome, writeFiles } from "./support/agent-process.ts";
import { activeSession, sessionFile } from "./support/events.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

const CONTEXT_WINDOW = 2000;
const { llm, start } = useAgentHarness();

/** An agent on `mock/small` (2000-token window) that keeps only the newest message when compacting. */
function spawnSmall(): AgentProcess {
  const home = mockHome(llm().url, [
    {
      id: "small",
      context_window: CONTEXT_WINDOW,
      max_output: 256,
      reasoning: false,
      cost: { input: 1, output: 2 },
    },
  ]);
  writeFileSync(
    join(home, "config.json"),
    JSON.stringify({ compaction: { enabled: true, reserve_ratio: 0.8, keep_recent_tokens: 1 } }),
  );
  return start({ home, model: "mock/small" });
}

function indexOf(events: Msg[], pred: (m: Msg) => boolean): number {
  const i = events.findIndex(pred);
  expect(i).toBeGreaterThanOrEqual(0);
  return i;
}

/** Raw bytes of each stored message (its `message` field is the line's last member). */
function storedMessages(home: string, sessionId: string): Map<string, string> {
  const lines = readFileSync(sessionFile(home, sessionId), "utf8").split("\n");
  const out = new Map<string, string>();
  for (const line of lines.slice(1).filter(Boolean)) {
    const entry = JSON.parse(line);
    if (entry.type !== "message") continue;
    const raw = line.slice(line.indexOf('"message":') + '"message":'.length, -1);
    expect(JSON.parse(raw)).toEqual(entry.message);
    out.set(entry.id, raw);
  }
  return out;
}

function requestTexts(body: Msg): string[] {
  return body.messages.map((m: Msg) =>
    typeof m.content === "string" ? m.content : JSON.stringify(m.content),
  );
}

describe("automatic compaction", () => {
  test("between turns above ~80%, then the summary replaces old messages and recall returns them exactly", async () => {
    const agent = spawnSmall();
    llm().enqueue({ steps: [{ text: "OLD-ANSWER about the parser" }], usage: { input: 1700, output: 10 } });
    const from = agent.events.length;
    await agent.prompt("OLD-QUESTION: explain the parser");
    const compaction = await agent.waitType("compaction", from);
    await agent.waitStatus("idle", agent.events.indexOf(compaction));
    const events = agent.events.slice(from);
    const turnEnd = indexOf(events, (m) => m.type === "turn_end");
    const at = events.indexOf(compaction);
    expect(at).toBeGreaterThan(turnEnd);
    expect(events[at - 1]).toMatchObject({ type: "status", status: "compacting" });
    expect(events[at + 1]).toMatchObject({ type: "status", status: "idle" });
    expect(compaction.index).toBe(0);
    expect(compaction.tokens_before).toBeGreaterThan(0);

    // The next provider call carries the summary instead of the compacted question.
    const sent = llm().requests.length;
    llm().enqueue({ steps: [{ text: "new answer" }], usage: { input: 100, output: 5 } });
    await agent.prompt("NEW-QUESTION");
    const texts = requestTexts(llm().requests[sent]?.body);
    const summary = texts.find((t) => t.includes("[Context compacted]"));
    expect(summary).toBeDefined();
    expect(summary).toContain("recall");
    expect(summary).toContain("compaction index 0");
    expect(texts.filter((t) => t.includes("OLD-QUESTION") && !t.includes("[Context compacted]"))).toEqual([]);
    expect(texts.some((t) => t.includes("OLD-ANSWER"))).toBe(true); // the kept newest message
    expect(texts.at(-1)).toContain("NEW-QUESTION");

    // The model recalls index 0 and gets the exact original messages back.
    const sessionId = await activeSession(agent);
    const stored = storedMessages(agent.home, sessionId);
    const [firstId, lastId] = compaction.message_range as [string, string];
    const ids = [...stored.keys()];
    const range = ids.slice(ids.indexOf(firstId), ids.indexOf(lastId) + 1);
    expect(range.length).toBeGreaterThan(0);
    llm().enqueue(
      { steps: [{ tool_call: { name: "recall", args: { index: 0 } } }], usage: { input: 100, output: 5 } },
      { steps: [{ text: "recalled" }], usage: { input: 100, output: 5 } },
    );
    const recallEvents = await agent.prompt("what did I ask first?");
    expect(recallEvents.map((m) => m.type)).not.toContain("permission_request");
    const result = recallEvents.find((m) => m.type === "tool_result");
    expect(result?.is_error).toBe(false);
    const text: string = result?.content.text;
    for (const id of range) expect(text).toContain(stored.get(id) as string);
    expect(text).toContain("OLD-QUESTION: explain the parser");
  });

  test("mid-turn at 100%: compaction runs at the iteration boundary, between tool_result and the next call", async () => {
    const agent = spawnSmall();
    writeFiles(agent.cwd, { "a.txt": "a" });
    llm().enqueue(
      { steps: [{ tool_call: { name: "ls", args: {} } }], usage: { input: 1990, output: 20 } },
      { steps: [{ text: "listed" }], usage: { input: 100, output: 5 } },
    );
    const sent = llm().requests.length;
    const from = agent.events.length;
    const events = await agent.prompt("FIRST-ASK: list files");
    const toolResult = indexOf(events, (m) => m.type === "tool_result");
    const compaction = indexOf(events, (m) => m.type === "compaction");
    const turnEnd = indexOf(events, (m) => m.type === "turn_end");
    const lastMessage = events.findLastIndex((m) => m.type === "message_complete");
    expect(toolResult).toBeLessThan(compaction);
    expect(compaction).toBeLessThan(lastMessage);
    expect(lastMessage).toBeLessThan(turnEnd);
    expect(events[compaction - 1]).toMatchObject({ type: "status", status: "compacting" });
    expect(events[compaction + 1]).toMatchObject({ type: "status", status: "streaming" });
    // Only one compaction: after it the usage is small again, so the between-turns tier stays quiet
    // (it would have begun, with `status compacting`, as the turn went idle: before the barrier).
    const idle = events.findIndex((m, i) => i > turnEnd && m.type === "status" && m.status === "idle");
    await agent.barrier();
    expect(agent.events.slice(from + idle + 1).filter((m) => m.type === "status")).toEqual([]);
    expect(agent.events.slice(from).filter((m) => m.type === "compaction")).toHaveLength(1);

    // The second provider call of the turn already sees the summary, and the tool exchange intact.
    const body = llm().requests[sent + 1]?.body;
    const texts = requestTexts(body);
    expect(texts.some((t) => t.includes("[Context compacted]") && t.includes("compaction index 0"))).toBe(
      true,
    );
    expect(texts.filter((t) => t.includes("FIRST-ASK") && !t.includes("[Context compacted]"))).toEqual([]);
    expect(body.messages.some((m: Msg) => m.role === "tool")).toBe(true);
  });

  test("recall with a bad index is a tool error listing the valid indexes", async () => {
    const agent = spawnSmall();
    llm().enqueue(
      { steps: [{ tool_call: { name: "recall", args: { index: 3 } } }] },
      { steps: [{ text: "ok" }], usage: { input: 1700, output: 10 } },
    );
    let events = await agent.prompt("recall something");
    let result = events.find((m) => m.type === "tool_result");
    expect(result?.is_error).toBe(true);
    expect(result?.content.message).toContain("no compaction with index 3");
    expect(result?.content.message).toContain("none (nothing was compacted)");
    await agent.waitType("compaction");

    llm().enqueue(
      { steps: [{ tool_call: { name: "recall", args: { index: 7 } } }], usage: { input: 100, output: 5 } },
      { steps: [{ text: "ok" }], usage: { input: 100, output: 5 } },
    );
    events = await agent.prompt("recall again");
    result = events.find((m) => m.type === "tool_result");
    expect(result?.is_error).toBe(true);
    expect(result?.content.message).toContain("Valid compaction indexes: 0.");
  });
});
