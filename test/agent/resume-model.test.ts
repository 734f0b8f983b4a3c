/**
 * Resume keeps the settings a session started with (issue 7 item 11): the model chosen by
 * `--model` or found by discovery, and the mode, are recorded in the session and used again
 * by a resumed agent that is given neither. Real agent processes, real mock LLM server.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { AgentProcess } from "./support/agent-process.ts";
import { mockHome, tempDir } from "./support/agent-process.ts";
import { activeSession, sessionFile } from "./support/events.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

const { llm, spawn } = useAgentHarness();

/** A user whose default would be `openai/gpt-4.1`, served by the mock LLM server. */
function openAiUser(): Record<string, string> {
  return { OPENAI_BASE_URL: `${llm().url}/v1`, OPENAI_API_KEY: "test" };
}

/** Prompts once and returns the model the mock server was asked for. */
async function modelRequested(agent: AgentProcess, prompt: string): Promise<string> {
  const before = llm().requests.filter((r) => r.path.endsWith("/chat/completions")).length;
  llm().enqueue({ steps: [{ text: "ok" }] });
  await agent.prompt(prompt);
  const calls = llm().requests.filter((r) => r.path.endsWith("/chat/completions"));
  expect(calls).toHaveLength(before + 1);
  return calls.at(-1)?.body.model;
}

describe("resume restores the model the session started with", () => {
  test("--model at start; resumed without --model", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const env = openAiUser();
    const first = await spawn({ home, cwd, env, model: "mock/chat" });
    expect(await modelRequested(first, "one")).toBe("chat");
    const id = await activeSession(first);
    expect(await first.close()).toBe(0);

    const resumed = await spawn({ home, cwd, env, model: null, args: ["--session", id] });
    expect((await resumed.request({ type: "list_models" })).data.active.id).toBe("mock/chat");
    expect(await modelRequested(resumed, "two")).toBe("chat");
  });

  test("a model found by discovery; resumed without --model", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    // Only OPENAI_BASE_URL: the agent asks the server's /models and runs its first model.
    const env = { OPENAI_BASE_URL: `${llm().url}/v1` };
    const first = await spawn({ home, cwd, env, model: null });
    expect(await modelRequested(first, "one")).toBe("mock-model");
    const id = await activeSession(first);
    expect(await first.close()).toBe(0);

    const resumed = await spawn({ home, cwd, env, model: null, args: ["--session", id] });
    expect(await modelRequested(resumed, "two")).toBe("mock-model");
  });

  test("--model on resume replaces the recorded model for later resumes", async () => {
    const home = mockHome(llm().url, [
      {
        id: "other",
        context_window: 100_000,
        max_output: 4096,
        reasoning: false,
        cost: { input: 1, output: 2 },
      },
    ]);
    const cwd = tempDir("cwd");
    const env = openAiUser();
    const first = await spawn({ home, cwd, env, model: "mock/chat" });
    const id = await activeSession(first);
    expect(await first.close()).toBe(0);

    const switched = await spawn({ home, cwd, env, model: "mock/other", args: ["--session", id] });
    expect(await modelRequested(switched, "one")).toBe("other");
    expect(await switched.close()).toBe(0);

    const again = await spawn({ home, cwd, env, model: null, args: ["--session", id] });
    expect(await modelRequested(again, "two")).toBe("other");
    const lines = readFileSync(sessionFile(home, id), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: "session", model: "mock/chat", mode: "build" });
    expect(lines.filter((l) => l.type === "model_change").map((l) => l.model)).toEqual(["mock/other"]);
  });
});

describe("resume restores the mode the session started with", () => {
  test("--mode plan at start; resumed without --mode", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const first = await spawn({ home, cwd, args: ["--mode", "plan"] });
    const id = await activeSession(first);
    expect(await first.close()).toBe(0);

    const resumed = await spawn({ home, cwd, args: ["--session", id] });
    expect((await resumed.request({ type: "list_modes" })).data.active).toBe("plan");
  });
});
