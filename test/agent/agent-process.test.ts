/** The test driver for a real `shard agent`: a wait on an agent that has died fails at once. */
import { describe, expect, test } from "bun:test";
import { useAgentHarness } from "./support/harness.ts";

const { start } = useAgentHarness();

describe("AgentProcess", () => {
  test("a wait for an event that can no longer come fails when stdout ends, naming the exit", async () => {
    const agent = start({ args: ["--tools", "read,teleport"] }); // a fatal start-up (usage) error
    // Not `expect(promise).rejects`: Bun spins the event loop inside it, so no test timeout could
    // end a wait that never settles.
    const error = await agent.waitType("sync").catch((e: Error) => e);
    expect(String(error)).toContain(
      "the agent's stdout ended (exit: 2) before the awaited event; got: error",
    );
    expect(String(error)).toMatch(/\nstderr: .*teleport/);
    expect(await agent.exit()).toBe(2);
    // Asked after the end: rejected at once.
    const again = await agent.waitType("turn_end").catch((e: Error) => e);
    expect(String(again)).toContain("stdout ended");
  }, 10_000);
});
