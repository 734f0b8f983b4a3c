/**
 * A model server that repeats its tool-call ids across responses, against a real `shard agent`:
 * the runtime names every call uniquely in its events, session file, resume and recall, and
 * still hands the model back the id the model gave, in each wire format.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import {
  REPEATED_TOOL_CALL_ID,
  repeatedToolIdReplies,
  sentToolCallIds,
} from "../support/mock-llm/repeated-tool-ids.ts";
import { type AgentProcess, type Msg, mockHome, tempDir } from "./support/agent-process.ts";
import { activeSession, answerNextPermission, blockText, sessionFile } from "./support/events.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

const { llm, start } = useAgentHarness();

/** Runs the scripted turn: the first `bash` is allowed, the second (same server id) denied. */
async function repeatedIdTurn(agent: AgentProcess): Promise<Msg[]> {
  llm().enqueue(...repeatedToolIdReplies());
  const from = agent.events.length;
  const res = await agent.request({ type: "prompt", message: "tidy up" });
  expect(res.success).toBe(true);
  await answerNextPermission(agent, from, "allow_once");
  const first = await agent.waitType("tool_result", from);
  await answerNextPermission(agent, agent.events.indexOf(first), "deny");
  return agent.waitTurnEnd(from);
}

const ids = (events: Msg[], type: string): string[] =>
  events.filter((e) => e.type === type && e.tool_call_id !== undefined).map((e) => e.tool_call_id);

function windowIds(messages: Msg[]): { calls: string[]; results: string[] } {
  const blocks: Msg[] = messages.flatMap((m) => m.content);
  return {
    calls: blocks.filter((b) => b.type === "tool_call").map((b) => b.id),
    results: blocks.filter((b) => b.type === "tool_result").map((b) => b.tool_call_id),
  };
}

describe("a model server that repeats its tool-call ids", () => {
  for (const model of ["mock/chat", "mockresp/resp", "mockant/claude"]) {
    test(`${model}: two calls with one server id stay two calls, and the model gets its id back`, async () => {
      const agent = start({ model, cwd: tempDir("cwd") });
      await agent.waitType("sync");
      const base = llm().requests.length;
      const events = await repeatedIdTurn(agent);

      const [listed, removed] = ids(events, "message_delta");
      expect(listed).toBeDefined();
      expect(removed).toBeDefined();
      expect(listed).not.toBe(removed);
      expect(listed).not.toBe(REPEATED_TOOL_CALL_ID);
      // The denied call never ran: no tool_call event, but its own result.
      expect(ids(events, "tool_call")).toEqual([listed!]);
      expect(ids(events, "tool_result")).toEqual([listed!, removed!]);
      const outputs = ids(events, "tool_output");
      expect(outputs.length).toBeGreaterThan(0);
      expect(new Set(outputs)).toEqual(new Set([listed!]));
      const results = events.filter((e) => e.type === "tool_result");
      expect(JSON.stringify(results[0]?.content)).toContain("listed");
      expect(JSON.stringify(results[1]?.content)).toContain("permission denied");
      expect(JSON.stringify(results[1]?.content)).not.toContain("listed");
      const [, second] = events.filter(
        (e) => e.type === "message_complete" && e.message.role === "assistant",
      );
      expect(windowIds([second?.message])).toEqual({ calls: [removed!], results: [] });

      // Each provider call hands the model back the id it gave, on the call and its result.
      expect(llm().requests.length - base).toBe(3);
      expect(sentToolCallIds(llm().requests[base + 1]?.body)).toEqual(Array(2).fill(REPEATED_TOOL_CALL_ID));
      expect(sentToolCallIds(llm().requests[base + 2]?.body)).toEqual(Array(4).fill(REPEATED_TOOL_CALL_ID));
    });
  }

  test("the session file, a resume and recall keep the two calls apart", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const agent = start({ home, cwd });
    await agent.waitType("sync");
    const events = await repeatedIdTurn(agent);
    const callIds = ids(events, "tool_result");
    const sessionId = await activeSession(agent);
    await agent.close();

    const stored: Msg[] = readFileSync(sessionFile(home, sessionId), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.message !== undefined)
      .map((entry) => entry.message);
    expect(windowIds(stored)).toEqual({ calls: callIds, results: callIds });
    const storedCalls = stored.flatMap((m) => m.content).filter((b: Msg) => b.type === "tool_call");
    expect(storedCalls.map((b: Msg) => b.provider_id)).toEqual(Array(2).fill(REPEATED_TOOL_CALL_ID));

    const resumed = start({ home, cwd, args: ["--session", sessionId] });
    const sync = await resumed.waitType("sync");
    expect(windowIds(sync.live_window.messages)).toEqual({ calls: callIds, results: callIds });
    llm().enqueue({ steps: [{ text: "resumed" }] });
    const sent = llm().requests.length;
    await resumed.prompt("go on");
    expect(sentToolCallIds(llm().requests[sent]?.body)).toEqual(Array(4).fill(REPEATED_TOOL_CALL_ID));

    // Compacted away, the calls come back through recall exactly as stored, still two.
    const compacted = await resumed.request({
      type: "session_op",
      op: "compact",
      args: { keep_recent_tokens: 1 },
    });
    expect(compacted.data.compacted).toBe(true);
    llm().enqueue(
      { steps: [{ tool_call: { id: REPEATED_TOOL_CALL_ID, name: "recall", args: { index: 0 } } }] },
      { steps: [{ text: "recalled" }] },
    );
    const recall = await resumed.prompt("what did you run?");
    const [recallId] = ids(recall, "tool_result");
    expect(callIds).not.toContain(recallId);
    const recalled = JSON.stringify(recall.find((e) => e.type === "tool_result")?.content);
    for (const id of callIds) expect(recalled.split(id).length - 1).toBe(2); // its call and its result
  });

  test("a session written before the runtime minted ids resumes with the old id as both", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const agent = start({ home, cwd });
    await agent.waitType("sync");
    const callIds = ids(await repeatedIdTurn(agent), "tool_result");
    const sessionId = await activeSession(agent);
    await agent.close();

    // Rewrite the file the old way: each call named only by the server's id, no provider_id.
    const path = sessionFile(home, sessionId);
    let text = readFileSync(path, "utf8").replaceAll(`,"provider_id":"${REPEATED_TOOL_CALL_ID}"`, "");
    callIds.forEach((id, i) => {
      text = text.replaceAll(id, `call_old_${i}`);
    });
    expect(text).not.toContain("provider_id");
    writeFileSync(path, text);

    const resumed = start({ home, cwd, args: ["--session", sessionId] });
    const sync = await resumed.waitType("sync");
    const old = ["call_old_0", "call_old_1"];
    expect(windowIds(sync.live_window.messages)).toEqual({ calls: old, results: old });
    llm().enqueue({ steps: [{ text: "still fine" }] });
    const sent = llm().requests.length;
    const events = await resumed.prompt("go on");
    expect(events.find((e) => e.type === "error")).toBeUndefined();
    expect(blockText(events.findLast((e) => e.type === "message_complete")?.message)).toBe("still fine");
    expect(sentToolCallIds(llm().requests[sent]?.body)).toEqual([
      "call_old_0",
      "call_old_0",
      "call_old_1",
      "call_old_1",
    ]);
  });
});
