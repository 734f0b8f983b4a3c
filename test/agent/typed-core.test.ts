/**
 * The runtime core the daemon stands on, through a real `shard agent`: a responder's `source`
 * reaches `permission_resolved` (docs/protocol.md §5.3, "headless"), `sync` carries the session and
 * the model, and a long manual compaction neither holds up later commands nor outlives `abort`.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { mockHome } from "./support/agent-process.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);
const { llm, spawn } = useAgentHarness();

describe("permission_response.source", () => {
  test("a responder's source is echoed in permission_resolved; without one, the connection answers", async () => {
    const agent = await spawn();
    for (const [source, expected] of [
      ["headless", "headless"],
      [undefined, "stdio"],
    ] as const) {
      llm().enqueue(
        { steps: [{ tool_call: { name: "bash", args: { command: "echo hi" } } }] },
        { steps: [{ text: "ok" }] },
      );
      const from = agent.events.length;
      await agent.request({ type: "prompt", message: "run it" });
      const request = await agent.waitType("permission_request", from);
      agent.send({
        type: "permission_response",
        request_id: request.request_id,
        decision: "deny",
        ...(source ? { source } : {}),
      });
      const resolved = await agent.waitType("permission_resolved", from);
      expect(resolved).toMatchObject({ request_id: request.request_id, decision: "deny", source: expected });
      await agent.waitType("turn_end", from);
    }
  });
});

describe("sync", () => {
  test("names the session and the active model", async () => {
    const agent = await spawn();
    const sync = agent.events.find((e) => e.type === "sync")!;
    const list = await agent.request({ type: "session_op", op: "list" });
    expect(sync.session_id).toBe(list.data.active);
    expect(sync.model).toMatchObject({ id: "mock/chat", provider: "mock", model: "chat" });
    expect(sync.usage).toEqual({ input: 0, output: 0 });
  });
});

describe("a manual compaction with the model summarizer", () => {
  /** An agent with three answered turns and the model summarizer configured. */
  async function agentWithHistory() {
    const home = mockHome(llm().url);
    writeFileSync(join(home, "config.json"), JSON.stringify({ compaction: { summarizer: "model" } }));
    const agent = await spawn({ home });
    for (let i = 0; i < 3; i++) {
      llm().enqueue({ steps: [{ text: `answer ${i} ${"words ".repeat(100)}` }] });
      const from = agent.events.length;
      await agent.prompt(`question ${i}`);
      await agent.waitType("turn_end", from);
    }
    return agent;
  }

  test("does not hold up later commands, and abort cancels it without writing a compaction", async () => {
    const agent = await agentWithHistory();
    // The summarizer's model call is held open: it never finishes by itself.
    llm().enqueue({ steps: [{ text: "partial summary" }, { hold: "summarizer" }] });
    const from = agent.events.length;
    agent.send({ type: "session_op", id: "compact", op: "compact", args: { keep_recent_tokens: 1 } });
    await llm().waitForHold("summarizer");
    // Answered while the compaction runs.
    const modes = await agent.request({ type: "list_modes" });
    expect(modes.success).toBe(true);
    expect(agent.events.find((e) => e.type === "response" && e.id === "compact")).toBeUndefined();
    const aborted = await agent.request({ type: "abort" });
    expect(aborted.success).toBe(true);
    const compact = await agent.waitFor((e) => e.type === "response" && e.id === "compact", from);
    expect(compact.success).toBe(false);
    expect(compact.error).toEqual({ code: "CONFLICT", message: "compaction aborted: nothing was written" });
    await agent.waitStatus("idle", from);
    expect(agent.events.slice(from).some((e) => e.type === "compaction")).toBe(false);
    // The session is intact: a later compaction (deterministic fallback of a working model) succeeds.
    llm().enqueue({ steps: [{ text: "a fine summary" }] });
    const again = await agent.request({ type: "session_op", op: "compact", args: { keep_recent_tokens: 1 } });
    expect(again.success).toBe(true);
    expect(again.data.compacted).toBe(true);
  });
});
