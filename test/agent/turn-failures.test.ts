/**
 * A failed or cut-off turn stays in the transcript (docs/web.md "Failures"): a real `shard agent`
 * against the mock LLM records a `turn_failure` entry, emits `turn_failed` (before the turn's
 * `error` and `turn_end`), reports retries as `turn_retry`, and a resumed runtime's `sync` shows
 * the failure again; a runtime killed or closed mid-reply leaves an `interrupted` marker.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Msg } from "./support/agent-process.ts";
import { mockHome, tempDir } from "./support/agent-process.ts";
import { activeSession, sessionFile } from "./support/events.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

const { llm, start, spawn } = useAgentHarness();

function entries(home: string, sessionId: string): Msg[] {
  return readFileSync(sessionFile(home, sessionId), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Msg);
}

describe("a failed turn", () => {
  test("is recorded in the session, reported as turn_failed, and shown again after a resume", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const agent = await spawn({ home, cwd });
    llm().enqueue({ status: 401, error_type: "authentication_error" });
    const from = agent.events.length;
    const events = await agent.prompt("hello there");
    const types = events.map((e) => e.type);
    // turn_failed comes before the error and turn_end (shard run reads the error right before turn_end).
    const end = types.indexOf("turn_end");
    expect(types.slice(end - 2, end + 1)).toEqual(["turn_failed", "error", "turn_end"]);
    const failed = events.find((e) => e.type === "turn_failed");
    const prompt = agent.events.slice(from).find((e) => e.type === "message_complete");
    expect(failed?.failure).toMatchObject({
      kind: "failed",
      code: "PROVIDER_ERROR",
      after_message_id: prompt?.message_id,
      prompt_message_id: prompt?.message_id,
    });
    expect(failed?.failure.message).toContain("401");
    // The error carries the provider's status, and says where the refused key came from.
    const error = events.find((e) => e.type === "error");
    expect(error?.data).toEqual({ status: 401 });
    expect(error?.message).toContain('check the "api_key" of provider "mock" in models.json');

    const sessionId = await activeSession(agent);
    const stored = entries(home, sessionId).filter((e) => e.type === "turn_failure");
    expect(stored).toHaveLength(1);
    expect(stored[0]?.id).toBe(failed?.failure.id);
    await agent.close();

    const resumed = start({ home, cwd, args: ["--session", sessionId] });
    const sync = await resumed.waitType("sync");
    expect(sync.live_window.failures).toEqual([failed?.failure]);
    // Never sent to the model: the next request holds the messages only.
    llm().enqueue({ steps: [{ text: "fine now" }] });
    const sent = llm().requests.length;
    await resumed.prompt("hello there");
    expect(JSON.stringify(llm().requests[sent]?.body)).not.toContain("turn_failure");
  });

  test("retries in progress are turn_retry events with the attempt, the delay and the reason", async () => {
    const agent = await spawn();
    llm().enqueue({ status: 503, error_type: "overloaded_error" }, { steps: [{ text: "ok" }] });
    const events = await agent.prompt("try");
    const retry = events.find((e) => e.type === "turn_retry");
    expect(retry).toMatchObject({ attempt: 2, max_attempts: 4 });
    expect(typeof retry?.delay_ms).toBe("number");
    expect(retry?.reason).toContain("mock");
    expect(events.some((e) => e.type === "turn_failed")).toBe(false);
  });
});

describe("a reply cut off", () => {
  test("by a kill -9 mid-stream is marked interrupted when the session resumes", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const agent = await spawn({ home, cwd });
    llm().enqueue({ steps: [{ text: "half a rep" }, { hold: "until-kill" }] });
    const from = agent.events.length;
    expect((await agent.request({ type: "prompt", message: "tell me" })).success).toBe(true);
    const prompt = await agent.waitType("message_complete", from);
    await agent.waitType("message_delta", from);
    const sessionId = await activeSession(agent);
    await agent.kill9();
    llm().release("until-kill");

    const resumed = start({ home, cwd, args: ["--session", sessionId] });
    const sync = await resumed.waitType("sync");
    expect(sync.live_window.failures).toHaveLength(1);
    expect(sync.live_window.failures[0]).toMatchObject({
      kind: "interrupted",
      after_message_id: prompt.message_id,
      prompt_message_id: prompt.message_id,
    });
    await resumed.close();
    // Marked once: a second resume finds the marker and adds none.
    const again = start({ home, cwd, args: ["--session", sessionId] });
    expect((await again.waitType("sync")).live_window.failures).toHaveLength(1);
  });

  test("by the runtime closing mid-stream (its client went away) is marked by the runtime itself", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const agent = await spawn({ home, cwd });
    llm().enqueue({ steps: [{ text: "half a rep" }, { hold: "until-close" }] });
    const from = agent.events.length;
    expect((await agent.request({ type: "prompt", message: "tell me" })).success).toBe(true);
    await agent.waitType("message_delta", from);
    const sessionId = await activeSession(agent);
    await agent.close();
    llm().release("until-close");

    const stored = entries(home, sessionId);
    const partial = stored.findLast((e) => e.type === "message" && e.message.role === "assistant");
    expect(partial?.message.content[0]?.text).toBe("half a rep");
    expect(stored.at(-1)).toMatchObject({
      type: "turn_failure",
      kind: "interrupted",
      after_message_id: partial?.message.id,
    });
    const resumed = start({ home, cwd, args: ["--session", sessionId] });
    expect((await resumed.waitType("sync")).live_window.failures).toHaveLength(1);
  });

  test("a user's abort is not a failure", async () => {
    const agent = await spawn();
    llm().enqueue({ steps: [{ text: "some" }, { hold: "until-abort" }] });
    const from = agent.events.length;
    expect((await agent.request({ type: "prompt", message: "go" })).success).toBe(true);
    await agent.waitType("message_delta", from);
    expect((await agent.request({ type: "abort" })).success).toBe(true);
    llm().release("until-abort");
    await agent.waitType("turn_end", from);
    expect(agent.events.slice(from).some((e) => e.type === "turn_failed")).toBe(false);
  });
});
