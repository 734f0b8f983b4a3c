/**
 * End of stdin through a real `shard agent` process: whatever the client left unfinished on
 * its last line is answered before the agent exits (docs/protocol.md §1, §8).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

const { spawn } = useAgentHarness();

describe("stdin EOF", () => {
  test("an unterminated final line over the line limit gets an INVALID_REQUEST response before exit", async () => {
    const agent = await spawn();
    const from = agent.events.length;
    // 17 MiB, over the 16 MiB limit, and no trailing LF: then EOF.
    agent.writeRaw(JSON.stringify({ type: "prompt", id: "big", message: "x".repeat(17 * 1024 * 1024) }));
    const exited = agent.close();
    const res = await agent.waitType("response", from);
    expect(res).toMatchObject({ success: false, error: { code: "INVALID_REQUEST" } });
    expect(res.error.message).toContain("16777216-byte limit");
    expect(await exited).toBe(0);
  });

  test("an unterminated final line under the limit is answered too", async () => {
    const agent = await spawn();
    const from = agent.events.length;
    agent.writeRaw(JSON.stringify({ type: "prompt", id: "short", message: "hi" }));
    const exited = agent.close();
    const res = await agent.waitType("response", from);
    expect(res).toMatchObject({ success: false, error: { code: "INVALID_REQUEST" } });
    expect(res.error.message).toContain("unterminated final line");
    expect(await exited).toBe(0);
  });
});
