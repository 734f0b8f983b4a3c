/**
 * The direct transport against a real `shard agent` child on the mock LLM: the one-call
 * `run`, streaming a turn, steer / follow-up / abort, state equal to the runtime's own `sync`,
 * typed errors, and session operations.
 */
import { describe, expect, test } from "bun:test";
import { spawnAgent } from "../../sdk/src/direct.ts";
import { ShardError } from "../../sdk/src/errors.ts";
import type { AgentStreamEvent } from "../../sdk/src/stream-events.ts";
import { AgentProcess, mockHome, tempDir } from "../agent/support/agent-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

const llm = useMockLlmServer();

function start(extra: Parameters<typeof spawnAgent>[0] = {}) {
  return spawnAgent({ home: mockHome(llm().url), cwd: tempDir("cwd"), model: "mock/chat", env: { PATH: process.env.PATH ?? "", SHARD_RETRY_BASE_MS: "5" }, ...extra });
}

describe("direct agent", () => {
  test("run resolves at turn_end with the final text and the turn's usage", async () => {
    const agent = await start();
    llm().enqueue({ steps: [{ text: "All tests pass now.", chunks: 4 }], usage: { input: 12, output: 5 } });
    const { text, usage, messages } = await agent.run("fix the failing test");
    expect(text).toBe("All tests pass now.");
    expect(usage.input).toBe(12);
    expect(usage.output).toBe(5);
    expect(messages[0]?.role).toBe("user");
    expect(agent.state.status).toBe("idle");
    await agent.close();
  });
});
