/**
 * Mode, model and reasoning-level controls against a real `shard agent`
 * (docs/protocol.md §10.1, §11.1): catalogs, switches and their events, errors that leave the
 * selection alone, an extension mode's tool restriction, and a model switch that waits for the next
 * provider call.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type AgentProcess, type Msg, mockHome, tempDir, writeFiles } from "./support/agent-process.ts";
import { assistantMessages, blockText } from "./support/events.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

const { llm, spawn } = useAgentHarness();

/** Sends a command; returns its response and the events emitted between sending and the response. */
async function command(agent: AgentProcess, message: Msg): Promise<{ res: Msg; events: Msg[] }> {
  const from = agent.events.length;
  const res = await agent.request(message);
  const events = agent.events.slice(from, agent.events.indexOf(res));
  return { res, events };
}

describe("modes", () => {
  test("list_modes, set_mode with mode_changed, idempotent set, unknown mode", async () => {
    const agent = await spawn();
    const listed = await agent.request({ type: "list_modes" });
    expect(listed.success).toBe(true);
    const names = listed.data.modes.map((m: Msg) => m.name);
    expect(names).toEqual(expect.arrayContaining(["build", "plan"]));
    expect(listed.data.active).toBe("build");
    for (const m of listed.data.modes) expect(Object.keys(m).sort()).toEqual(["description", "name"]);

    const changed = await command(agent, { type: "set_mode", mode: "plan" });
    expect(changed.res.data).toEqual({ previous_mode: "build", mode: "plan" });
    expect(changed.events.filter((e) => e.type === "mode_changed")).toEqual([
      expect.objectContaining({ type: "mode_changed", previous_mode: "build", mode: "plan" }),
    ]);

    const same = await command(agent, { type: "set_mode", mode: "plan" });
    expect(same.res.success).toBe(true);
    expect(same.res.data).toEqual({ previous_mode: "plan", mode: "plan" });
    expect(same.events).toEqual([]);

    const unknown = await command(agent, { type: "set_mode", mode: "nonexistent" });
    expect(unknown.res.success).toBe(false);
    expect(unknown.res.error.code).toBe("NOT_FOUND");
    expect(unknown.events).toEqual([]);
    expect((await agent.request({ type: "list_modes" })).data.active).toBe("plan");
  });

  test("an extension mode from .shard/modes is listed and its tools restriction is enforced", async () => {
    const cwd = tempDir("cwd");
    writeFiles(cwd, {
      ".shard/modes/review.md":
        "---\ndescription: Review code without running it\ntools: read, ls\n---\nYou are reviewing code.\n",
      "src/app.ts": "export const x = 1;\n",
    });
    const agent = await spawn({ cwd });
    const listed = await agent.request({ type: "list_modes" });
    expect(listed.data.modes).toContainEqual({
      name: "review",
      description: "Review code without running it",
    });
    const set = await command(agent, { type: "set_mode", mode: "review" });
    expect(set.res.success).toBe(true);
    expect(set.events.some((e) => e.type === "mode_changed" && e.mode === "review")).toBe(true);

    const base = llm().requests.length;
    llm().enqueue(
      {
        steps: [
          { tool_call: { name: "bash", args: { command: "echo ran > ran.txt" } } },
          { tool_call: { name: "read", args: { path: "src/app.ts" } } },
        ],
      },
      { steps: [{ text: "Reviewed." }] },
    );
    const events = await agent.prompt("review the app");
    // The model is only offered the mode's tools, and the prompt carries the mode text.
    const body = llm().requests[base]?.body;
    const offered = (body.tools as Msg[]).map((t) => t.function.name).sort();
    expect(offered).toEqual(["ls", "read"]);
    expect(JSON.stringify(body.messages)).toContain("You are reviewing code.");

    expect(events.some((e) => e.type === "permission_request")).toBe(false);
    const results = events.filter((e) => e.type === "tool_result");
    expect(results).toHaveLength(2);
    expect(results[0]!.is_error).toBe(true);
    expect(JSON.stringify(results[0]!.content)).toContain("review mode");
    expect(results[1]!.is_error).toBe(false);
    expect(JSON.stringify(results[1]!.content)).toContain("export const x");
    const calls = events.filter((e) => e.type === "tool_call").map((e) => e.name);
    expect(calls).toEqual(["read"]);
    expect(existsSync(join(agent.cwd, "ran.txt"))).toBe(false);
  });
});

describe("models", () => {
  test("list_models, set_model with model_changed, unknown model", async () => {
    const agent = await spawn();
    const listed = await agent.request({ type: "list_models" });
    expect(listed.success).toBe(true);
    const ids = listed.data.models.map((m: Msg) => m.id);
    expect(ids).toEqual(expect.arrayContaining(["mock/chat", "mockant/claude"]));
    expect(listed.data.active).toMatchObject({ id: "mock/chat", provider: "mock", model: "chat" });
    expect(JSON.stringify(listed.data)).not.toContain("api_key");

    const set = await command(agent, { type: "set_model", model: "mockant/claude" });
    expect(set.res.data).toMatchObject({
      previous: { id: "mock/chat" },
      active: { id: "mockant/claude", provider: "mockant", model: "claude" },
      effective: "next_provider_call",
    });
    const changed = set.events.find((e) => e.type === "model_changed")!;
    expect(changed).toMatchObject({
      previous: { id: "mock/chat" },
      active: { id: "mockant/claude" },
      effective: "next_provider_call",
    });
    expect(changed.capabilities).toContain("reasoning-switch");

    const unknown = await command(agent, { type: "set_model", model: "nope/none" });
    expect(unknown.res.success).toBe(false);
    expect(unknown.res.error.code).toBe("NOT_FOUND");
    expect(unknown.events).toEqual([]);
    expect((await agent.request({ type: "list_models" })).data.active.id).toBe("mockant/claude");

    const base = llm().requests.length;
    await agent.prompt("which model?");
    expect(llm().requests[base]).toMatchObject({ path: "/v1/messages", body: { model: "claude" } });
  });

  test("set_model during a stream does not interrupt it; the next provider call uses the new model", async () => {
    const home = mockHome(llm().url, [
      {
        id: "other",
        context_window: 50_000,
        max_output: 2048,
        reasoning: false,
        cost: { input: 1, output: 1 },
      },
    ]);
    const agent = await spawn({ home });
    const base = llm().requests.length;
    llm().enqueue(
      {
        steps: [
          { text: "Old model speaking", chunks: 2 },
          { hold: "set-model-mid-stream" },
          { text: " still.", chunks: 1 },
          { tool_call: { name: "ls", args: { path: "." } } },
        ],
      },
      { steps: [{ text: "New model here." }] },
    );
    const from = agent.events.length;
    await agent.request({ type: "prompt", message: "switch while streaming" });
    await agent.waitType("message_delta", from);
    const set = await command(agent, { type: "set_model", model: "mock/other" });
    expect(set.res.data.effective).toBe("next_provider_call");
    expect(set.events.some((e) => e.type === "model_changed")).toBe(true);
    llm().release("set-model-mid-stream");

    await agent.waitType("turn_end", from);
    const events = agent.events.slice(from);
    expect(events.some((e) => e.type === "error")).toBe(false);
    const [first, second] = assistantMessages(events);
    expect(blockText(first!)).toBe("Old model speaking still.");
    expect(blockText(second!)).toBe("New model here.");
    expect(llm().requests.length - base).toBe(2);
    expect(llm().requests[base]?.body.model).toBe("chat");
    expect(llm().requests[base + 1]?.body.model).toBe("other");
    const usage = events.filter((e) => e.type === "usage").map((e) => e.model);
    expect(usage).toEqual(["mock/chat", "mock/other"]);
  });

  test("a switch across providers mid-turn carries the history to the other API", async () => {
    const agent = await spawn();
    const base = llm().requests.length;
    llm().enqueue(
      {
        steps: [
          { text: "Listing." },
          { hold: "cross-provider" },
          { tool_call: { name: "ls", args: { path: "." } } },
        ],
      },
      { steps: [{ text: "Claude continues." }] },
    );
    const from = agent.events.length;
    await agent.request({ type: "prompt", message: "cross provider" });
    await agent.waitType("message_delta", from);
    await agent.request({ type: "set_model", model: "mockant/claude" });
    llm().release("cross-provider");
    await agent.waitType("turn_end", from);
    expect(agent.events.slice(from).some((e) => e.type === "error")).toBe(false);
    expect(llm().requests[base]?.path).toBe("/v1/chat/completions");
    expect(llm().requests[base + 1]).toMatchObject({ path: "/v1/messages", body: { model: "claude" } });
    const sent = JSON.stringify(llm().requests[base + 1]?.body.messages);
    expect(sent).toContain("tool_result");
    expect(sent).toContain("cross provider");
  });
});

describe("reasoning levels", () => {
  test("list, set with event, stale model, unknown effort, idempotent set, budget in the request", async () => {
    const agent = await spawn({ model: "mockant/claude" });
    const listed = await agent.request({ type: "list_reasoning_levels" });
    expect(listed.success).toBe(true);
    expect(listed.data).toMatchObject({
      model: { id: "mockant/claude" },
      active: "medium",
      effective: "next_provider_call",
    });
    expect(listed.data.levels.map((l: Msg) => l.id)).toEqual(["low", "medium", "high"]);

    let base = llm().requests.length;
    await agent.prompt("think at medium");
    const mediumBudget = llm().requests[base]?.body.thinking?.budget_tokens;
    expect(mediumBudget).toBeGreaterThan(2048);

    const stale = await command(agent, { type: "set_reasoning_level", model: "mock/chat", effort: "low" });
    expect(stale.res.success).toBe(false);
    expect(stale.res.error.code).toBe("CONFLICT");
    expect(stale.events).toEqual([]);

    const unknown = await command(agent, {
      type: "set_reasoning_level",
      model: "mockant/claude",
      effort: "ultra",
    });
    expect(unknown.res.error.code).toBe("NOT_FOUND");
    expect(unknown.events).toEqual([]);

    const same = await command(agent, {
      type: "set_reasoning_level",
      model: "mockant/claude",
      effort: "medium",
    });
    expect(same.res.success).toBe(true);
    expect(same.events).toEqual([]);

    const set = await command(agent, { type: "set_reasoning_level", model: "mockant/claude", effort: "low" });
    expect(set.res.data).toMatchObject({
      previous: "medium",
      active: "low",
      effective: "next_provider_call",
    });
    expect(set.events).toEqual([
      expect.objectContaining({
        type: "reasoning_level_changed",
        model: expect.objectContaining({ id: "mockant/claude" }),
        previous: "medium",
        active: "low",
        effective: "next_provider_call",
      }),
    ]);
    expect((await agent.request({ type: "list_reasoning_levels" })).data.active).toBe("low");

    base = llm().requests.length;
    await agent.prompt("think at low");
    expect(llm().requests[base]?.body.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
  });

  test("a model without levels has no reasoning controls", async () => {
    const agent = await spawn();
    const listed = await agent.request({ type: "list_reasoning_levels" });
    expect(listed.success).toBe(false);
    expect(listed.error.code).toBe("NOT_FOUND");
    const base = llm().requests.length;
    await agent.prompt("no thinking");
    expect(JSON.stringify(llm().requests[base]?.body)).not.toContain("reasoning_effort");
  });
});
