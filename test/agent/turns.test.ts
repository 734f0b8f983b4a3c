/**
 * Mid-turn input and provider failures against a real `shard agent` (docs/protocol.md §10.1, §6):
 * steer is delivered after the current tool calls and before the next model call, follow-up
 * waits until the agent stops, and provider errors end the turn without stopping the agent.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Msg } from "./support/agent-process.ts";
import {
  answerNextPermission,
  assistantMessages,
  blockText,
  openGate,
  waitForGate,
} from "./support/events.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

const { llm, spawn } = useAgentHarness();

/** OpenAI chat messages of one recorded request, as role + flattened text. */
function chatHistory(index: number): { role: string; text: string }[] {
  const messages = llm().requests[index]?.body.messages as Msg[];
  return messages.map((m) => ({
    role: m.role,
    text: typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? m.tool_calls ?? ""),
  }));
}

function indexOfText(history: { role: string; text: string }[], text: string): number {
  return history.findIndex((m) => m.text.includes(text));
}

describe("steer", () => {
  test("is delivered after the running tool call and before the next provider call", async () => {
    const agent = await spawn();
    const base = llm().requests.length;
    llm().enqueue(
      {
        steps: [
          { text: "Sleeping." },
          { tool_call: { name: "bash", args: { command: `${waitForGate("steer")}; echo slept` } } },
        ],
      },
      { steps: [{ text: "Noted the steer." }] },
    );
    const from = agent.events.length;
    const accepted = await agent.request({ type: "prompt", message: "run the sleep" });
    expect(accepted.success).toBe(true);
    await answerNextPermission(agent, from);
    await agent.waitType("tool_call", from);

    // Mid-turn, a prompt must say how to deliver it.
    const bare = await agent.request({ type: "prompt", message: "no behaviour given" });
    expect(bare.success).toBe(false);
    expect(bare.error.code).toBe("INVALID_REQUEST");
    expect(bare.error.message).toContain("streaming_behavior");

    const steer = await agent.request({
      type: "prompt",
      message: "STEER: use the short answer",
      streaming_behavior: "steer",
    });
    expect(steer.success).toBe(true);
    const steerAt = agent.events.indexOf(steer);
    // The steer was accepted while the bash call was still running.
    expect(agent.events.slice(from, steerAt).some((e) => e.type === "tool_result")).toBe(false);
    openGate(agent.cwd, "steer");

    await agent.waitTurnEnd(from);
    expect(llm().requests.length - base).toBe(2);

    const first = chatHistory(base);
    expect(indexOfText(first, "STEER")).toBe(-1);
    const second = chatHistory(base + 1);
    const toolAt = second.findIndex((m) => m.role === "tool");
    const steerMsg = indexOfText(second, "STEER: use the short answer");
    expect(toolAt).toBeGreaterThan(0);
    expect(second[toolAt]!.text).toContain("slept");
    expect(steerMsg).toBeGreaterThan(toolAt);
    expect(second[steerMsg]!.role).toBe("user");
    expect(indexOfText(second, "no behaviour given")).toBe(-1);

    // The steer is echoed as a user message between the tool result and the next answer.
    const events = agent.events.slice(from);
    const resultAt = events.findIndex((e) => e.type === "tool_result");
    const echoAt = events.findIndex(
      (e) => e.type === "message_complete" && blockText(e.message).startsWith("STEER"),
    );
    const answerAt = events.findIndex(
      (e) => e.type === "message_complete" && blockText(e.message) === "Noted the steer.",
    );
    expect(resultAt).toBeGreaterThan(0);
    expect(echoAt).toBeGreaterThan(resultAt);
    expect(answerAt).toBeGreaterThan(echoAt);
    expect(events.filter((e) => e.type === "turn_start")).toHaveLength(1);
    expect(events.filter((e) => e.type === "status").map((e) => e.status)).toEqual([
      "streaming",
      "waiting_for_permission",
      "streaming",
      "idle",
    ]);
  });

  test("the steer command is shorthand for prompt with streaming_behavior steer", async () => {
    const agent = await spawn();
    const base = llm().requests.length;
    llm().enqueue(
      {
        steps: [
          { text: "Looking." },
          { hold: "steer-shorthand" },
          { tool_call: { name: "ls", args: { path: "." } } },
        ],
      },
      { steps: [{ text: "Listed." }] },
    );
    const from = agent.events.length;
    await agent.request({ type: "prompt", message: "list things" });
    await agent.waitType("message_delta", from);
    const res = await agent.request({ type: "steer", message: "SHORTHAND steer text" });
    expect(res.success).toBe(true);
    expect(res.command).toBe("steer");
    llm().release("steer-shorthand");
    await agent.waitType("turn_end", from);
    expect(llm().requests.length - base).toBe(2);
    expect(indexOfText(chatHistory(base), "SHORTHAND")).toBe(-1);
    const second = chatHistory(base + 1);
    expect(indexOfText(second, "SHORTHAND steer text")).toBeGreaterThan(
      second.findIndex((m) => m.role === "tool"),
    );
  });
});

test("a steer naming a turn_id reaches only that turn: once it ended, CONFLICT and no new turn", async () => {
  const agent = await spawn();
  llm().enqueue({ steps: [{ text: "Holding." }, { hold: "strict-steer" }] }, { steps: [{ text: "Done." }] });
  const from = agent.events.length;
  await agent.request({ type: "prompt", message: "hold on" });
  const started = await agent.waitType("turn_start", from);
  const wrong = await agent.request({ type: "steer", message: "not this turn", turn_id: "turn_other" });
  expect(wrong.success).toBe(false);
  expect(wrong.error.code).toBe("CONFLICT");
  const right = await agent.request({ type: "steer", message: "THIS TURN", turn_id: started.turn_id });
  expect(right.data).toEqual({ queued: "steer" });
  llm().release("strict-steer");
  await agent.waitType("turn_end", from);

  // Idle now: a steer for the finished turn is refused, where a plain steer would start a turn.
  const late = await agent.request({ type: "steer", message: "LATE", turn_id: started.turn_id });
  expect(late.error.code).toBe("CONFLICT");
  expect(late.error.message).toContain("not running");
  const modes = await agent.request({ type: "list_modes" });
  expect(modes.success).toBe(true);
  expect(agent.events.slice(from).filter((e) => e.type === "turn_start")).toHaveLength(1);
});

describe("follow-up", () => {
  test("waits until the agent fully stops, then starts a new turn", async () => {
    const agent = await spawn();
    const base = llm().requests.length;
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command: `${waitForGate("first")}; echo first` } } }] },
      { steps: [{ text: "First turn done." }] },
      { steps: [{ text: "Follow-up answered." }] },
    );
    const from = agent.events.length;
    await agent.request({ type: "prompt", message: "first task" });
    await answerNextPermission(agent, from);
    await agent.waitType("tool_call", from);
    const res = await agent.request({
      type: "prompt",
      message: "FOLLOWUP question",
      streaming_behavior: "follow_up",
    });
    expect(res.success).toBe(true);
    openGate(agent.cwd, "first");

    const firstEnd = await agent.waitType("turn_end", from);
    const endAt = agent.events.indexOf(firstEnd);
    const idle = await agent.waitStatus("idle", endAt);
    const idleAt = agent.events.indexOf(idle);
    const secondStart = await agent.waitType("turn_start", endAt);
    expect(agent.events.indexOf(secondStart)).toBeGreaterThan(idleAt);
    expect(secondStart.turn_id).not.toBe(firstEnd.turn_id);
    const secondEnd = await agent.waitType("turn_end", agent.events.indexOf(secondStart));
    expect(secondEnd.turn_id).toBe(secondStart.turn_id);

    expect(llm().requests.length - base).toBe(3);
    expect(indexOfText(chatHistory(base), "FOLLOWUP")).toBe(-1);
    expect(indexOfText(chatHistory(base + 1), "FOLLOWUP")).toBe(-1);
    const third = chatHistory(base + 2);
    expect(third.at(-1)).toEqual({ role: "user", text: "FOLLOWUP question" });
    expect(indexOfText(third, "First turn done.")).toBeGreaterThan(0);

    // The follow-up is echoed at the start of its own turn.
    const secondEvents = agent.events.slice(agent.events.indexOf(secondStart));
    const echo = secondEvents.find((e) => e.type === "message_complete")!;
    expect(blockText(echo.message)).toBe("FOLLOWUP question");
  });
});

describe("provider failures", () => {
  test("a 429 is retried and the turn completes", async () => {
    const agent = await spawn();
    const base = llm().requests.length;
    llm().enqueue({ status: 429, error_type: "rate_limit_error" }, { steps: [{ text: "After the retry." }] });
    const events = await agent.prompt("try hard");
    expect(llm().requests.length - base).toBe(2);
    expect(blockText(assistantMessages(events)[0]!)).toBe("After the retry.");
    expect(events.some((e) => e.type === "error")).toBe(false);
    for (const s of events.filter((e) => e.type === "status" && e.detail !== undefined)) {
      expect(s.detail).toMatch(/retry/);
    }
  });

  test("a mid-stream disconnect ends the turn with a recoverable PROVIDER_ERROR", async () => {
    const agent = await spawn();
    llm().enqueue({ steps: [{ text: "Partial ans" }, { disconnect: true }] });
    const events = await agent.prompt("stream something");
    const error = events.find((e) => e.type === "error")!;
    expect(error).toMatchObject({ code: "PROVIDER_ERROR", fatal: false });
    const errorAt = events.indexOf(error);
    const endAt = events.findIndex((e) => e.type === "turn_end");
    expect(endAt).toBeGreaterThan(errorAt);
    expect(events.at(-1)).toMatchObject({ type: "status", status: "idle" });

    llm().enqueue({ steps: [{ text: "Working again." }] });
    const next = await agent.prompt("again please");
    expect(blockText(assistantMessages(next)[0]!)).toBe("Working again.");
    expect(next.some((e) => e.type === "error")).toBe(false);
  });
});

describe("live tool output", () => {
  test("a running bash streams tool_output deltas between tool_call and tool_result", async () => {
    const agent = await spawn();
    llm().enqueue(
      {
        steps: [
          {
            tool_call: {
              name: "bash",
              args: {
                command: `echo line1; ${waitForGate("2")}; echo line2; ${waitForGate("3")}; echo line3`,
              },
            },
          },
        ],
      },
      { steps: [{ text: "Counted." }] },
    );
    const from = agent.events.length;
    await agent.request({ type: "prompt", message: "count" });
    await answerNextPermission(agent, from, "allow_once");
    // The first line is visible while the command is still running.
    const first = await agent.waitType("tool_output", from);
    const resultSoFar = agent.events.slice(from).find((e) => e.type === "tool_result");
    expect(resultSoFar).toBeUndefined();
    expect(first.text_delta).toBe("line1\n");
    openGate(agent.cwd, "2");
    await agent.waitFor((e) => e.type === "tool_output" && e.text_delta.includes("line2"), from);
    openGate(agent.cwd, "3");
    const events = await agent.waitTurnEnd(from);
    const call = events.findIndex((e) => e.type === "tool_call");
    const result = events.findIndex((e) => e.type === "tool_result");
    const outputs = events.filter((e) => e.type === "tool_output");
    expect(outputs.length).toBeGreaterThanOrEqual(2);
    for (const o of outputs) {
      const at = events.indexOf(o);
      expect(at).toBeGreaterThan(call);
      expect(at).toBeLessThan(result);
      expect(o.tool_call_id).toBe(events[call]!.tool_call_id);
    }
    const streamed = outputs.map((o) => o.text_delta).join("");
    expect(streamed).toBe("line1\nline2\nline3\n");
    expect(events[result]!.content.text).toContain("line3");
  });
});

describe("live tool output limit", () => {
  test("a runaway command's live stream stops with a note; the tool_result still comes", async () => {
    const agent = await spawn();
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command: "yes xxxxxxxxx | head -c 1500000" } } }] },
      { steps: [{ text: "Lots of x." }] },
    );
    const from = agent.events.length;
    await agent.request({ type: "prompt", message: "flood" });
    await answerNextPermission(agent, from, "allow_once");
    const events = await agent.waitTurnEnd(from);
    const streamed = events
      .filter((e) => e.type === "tool_output")
      .map((e) => e.text_delta)
      .join("");
    expect(streamed.startsWith("xxxxxxxxx\n".repeat(100))).toBe(true);
    expect(streamed.length).toBeLessThan(1_100_000);
    expect(streamed).toContain("[live output stopped after 1000000 characters");
    const result = events.find((e) => e.type === "tool_result")!;
    expect(result.is_error).toBe(false);
    expect(result.content.text).toContain("xxxx");
  });
});
