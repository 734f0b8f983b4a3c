/**
 * kill -9 of a real `shard agent` in the middle of a turn, then resume (docs/architecture.md §9.2):
 * everything acknowledged before the kill is restored, and the resumed window is valid for
 * the provider (no tool call without its result).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { appendFileSync } from "node:fs";
import { type AgentProcess, type Msg, mockHome, tempDir, writeFiles } from "./support/agent-process.ts";
import { activeSession, answerNextPermission, openGate, sessionFile, waitForGate } from "./support/events.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

const { llm, start } = useAgentHarness();

/**
 * Chat Completions validity: every assistant tool call is answered by a `tool` message before
 * the next non-tool message, and every `tool` message answers a call.
 */
function expectToolCallsAnswered(messages: Msg[]): void {
  let open = new Set<string>();
  for (const m of messages) {
    if (m.role === "tool") {
      expect(open.has(m.tool_call_id)).toBe(true);
      open.delete(m.tool_call_id);
      continue;
    }
    expect([...open]).toEqual([]);
    open = new Set((m.tool_calls ?? []).map((c: Msg) => c.id));
  }
  expect([...open]).toEqual([]);
}

/** What the client was told was durable: the prompt's user message, message_complete and tool_result. */
function acknowledged(agent: AgentProcess, from: number): { messageIds: string[]; toolResults: string[] } {
  const events = agent.events.slice(from);
  return {
    messageIds: events.filter((m) => m.type === "message_complete").map((m) => m.message_id),
    toolResults: events.filter((m) => m.type === "tool_result").map((m) => m.tool_call_id),
  };
}

function resultIds(window: Msg[]): string[] {
  return window.flatMap((m) =>
    m.content.filter((b: Msg) => b.type === "tool_result").map((b: Msg) => b.tool_call_id),
  );
}

describe("kill -9 mid-turn, then resume", () => {
  test("while the model streams after a completed tool call", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    writeFiles(cwd, { "file.txt": "content" });
    const agent = start({ home, cwd });
    llm().enqueue(
      { steps: [{ tool_call: { id: "call_ls", name: "ls", args: {} } }] },
      { steps: [{ text: "partial answer" }, { hold: "until-kill" }] },
    );
    const from = agent.events.length;
    const res = await agent.request({ type: "prompt", message: "look around" });
    expect(res.success).toBe(true);
    const sessionId = await activeSession(agent);
    await agent.waitType("tool_result", from);
    await agent.waitFor((m) => m.type === "message_delta" && m.text_delta === "partial answer", from);
    const acked = acknowledged(agent, from);
    expect(acked.messageIds).toHaveLength(2); // the user message and the assistant's tool call
    expect(acked.toolResults).toHaveLength(1);
    await agent.kill9();

    const resumed = start({ home, cwd, args: ["--session", sessionId] });
    const sync = await resumed.waitType("sync");
    const window: Msg[] = sync.live_window.messages;
    const ids = window.map((m) => m.id);
    for (const id of acked.messageIds) expect(ids).toContain(id);
    expect(resultIds(window)).toEqual(acked.toolResults);
    expect(window[0]?.content[0]?.text).toBe("look around");

    const sent = llm().requests.length;
    llm().enqueue({ steps: [{ text: "resumed fine" }] });
    const events = await resumed.prompt("continue");
    expect(events.find((m) => m.type === "error")).toBeUndefined();
    const body = llm().requests[sent]?.body;
    expect(JSON.stringify(body.messages)).toContain("look around");
    expectToolCallsAnswered(body.messages);
    // The model gets back the id it gave the call, not the runtime's.
    expect(body.messages.find((m: Msg) => m.role === "tool")?.tool_call_id).toBe("call_ls");
  });

  test("while bash runs: the dangling tool call gets an interrupted result on resume", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const agent = start({ home, cwd });
    llm().enqueue({
      steps: [{ tool_call: { id: "call_sleep", name: "bash", args: { command: waitForGate("never") } } }],
    });
    const from = agent.events.length;
    expect((await agent.request({ type: "prompt", message: "wait a bit" })).success).toBe(true);
    const sessionId = await activeSession(agent);
    await answerNextPermission(agent, from);
    const toolCall = await agent.waitType("tool_call", from);
    const acked = acknowledged(agent, from);
    await agent.kill9();
    openGate(cwd, "never"); // the orphaned bash loop ends by itself

    const resumed = start({ home, cwd, args: ["--session", sessionId] });
    const sync = await resumed.waitType("sync");
    const window: Msg[] = sync.live_window.messages;
    for (const id of acked.messageIds) expect(window.map((m) => m.id)).toContain(id);
    // The call never finished: resume records it as interrupted so the history stays valid.
    const result = window.flatMap((m) => m.content).find((b: Msg) => b.type === "tool_result");
    expect(result).toMatchObject({ tool_call_id: toolCall.tool_call_id, is_error: true });
    expect(JSON.stringify(result.content)).toContain("interrupted");

    const sent = llm().requests.length;
    llm().enqueue({ steps: [{ text: "ok" }] });
    const events = await resumed.prompt("what happened?");
    expect(events.find((m) => m.type === "error")).toBeUndefined();
    const body = llm().requests[sent]?.body;
    expectToolCallsAnswered(body.messages);
    expect(JSON.stringify(body.messages)).toContain("interrupted");

    // The repair is durable: a second resume sees the same single result, not a new one.
    await resumed.close();
    const again = start({ home, cwd, args: ["--session", sessionId] });
    const resync = await again.waitType("sync");
    expect(resultIds(resync.live_window.messages)).toEqual([toolCall.tool_call_id]);
  });

  test("with a torn tail left by the kill, the session still opens", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const agent = start({ home, cwd });
    llm().enqueue({ steps: [{ text: "answer one" }] });
    await agent.prompt("question one");
    const sessionId = await activeSession(agent);
    await agent.kill9();
    appendFileSync(sessionFile(home, sessionId), '{"id":"ent_half","parent');
    const resumed = start({ home, cwd, args: ["--session", sessionId] });
    const sync = await resumed.waitType("sync");
    expect(sync.live_window.messages).toHaveLength(2);
    const warning = await resumed.waitFor((m) => m.type === "error" && m.message.includes("torn"));
    expect(warning.fatal).toBe(false);
  });
});

describe("queued steer and follow-up messages survive a crash", () => {
  const textsOf = (window: Msg[]) =>
    window.flatMap((m) => m.content.filter((b: Msg) => b.type === "text").map((b: Msg) => b.text));

  /** An agent whose turn is held open mid-stream (the model said `text`), ready to queue input. */
  async function heldTurn(text: string) {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const agent = start({ home, cwd });
    llm().enqueue({ steps: [{ text }, { hold: "held-turn" }] });
    const from = agent.events.length;
    await agent.request({ type: "prompt", message: "start" });
    const sessionId = await activeSession(agent);
    await agent.waitFor((m) => m.type === "message_delta" && m.text_delta === text, from);
    return { home, cwd, agent, sessionId };
  }

  test("acknowledged but undelivered messages join the history on resume", async () => {
    const { home, cwd, agent, sessionId } = await heldTurn("thinking hard");
    const steer = await agent.request({ type: "steer", message: "also check the tests" });
    const follow = await agent.request({
      type: "prompt",
      message: "then write a summary",
      streaming_behavior: "follow_up",
    });
    expect([steer.success, follow.success]).toEqual([true, true]);
    await agent.kill9();

    const resumed = start({ home, cwd, args: ["--session", sessionId] });
    const sync = await resumed.waitType("sync");
    const texts = textsOf(sync.live_window.messages);
    expect(texts).toContain("also check the tests");
    expect(texts).toContain("then write a summary");
    expect(texts.indexOf("also check the tests")).toBeLessThan(texts.indexOf("then write a summary"));
    const warnings = resumed.events.filter((m) => m.type === "error" && m.fatal === false);
    expect(warnings.map((w) => w.message).join("\n")).toContain("2 queued message(s)");
    // Restored once: a second resume does not add them again.
    await resumed.close();
    const again = start({ home, cwd, args: ["--session", sessionId] });
    const sync2 = await again.waitType("sync");
    expect(textsOf(sync2.live_window.messages).filter((t) => t === "also check the tests")).toHaveLength(1);
  });

  test("messages dropped by abort stay dropped after a restart", async () => {
    const { home, cwd, agent, sessionId } = await heldTurn("working");
    await agent.request({ type: "steer", message: "never mind this" });
    const aborted = await agent.request({ type: "abort" });
    expect(aborted.data).toEqual({ cleared_queued: 1 });
    await agent.kill9();

    const resumed = start({ home, cwd, args: ["--session", sessionId] });
    const sync = await resumed.waitType("sync");
    expect(textsOf(sync.live_window.messages)).not.toContain("never mind this");
  });
});
