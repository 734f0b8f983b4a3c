/**
 * Servers that do not answer: the connect timeout (config.json `mcp.connect_timeout_ms`) turns
 * one into a non-fatal error while the turn goes on, and an agent closed while a server is still
 * starting stops at once, leaving no process behind.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { mockHome } from "../agent/support/agent-process.ts";
import { useAgentHarness } from "../agent/support/harness.ts";
import { pidsWith, writeMcpConfig } from "./support.ts";

setDefaultTimeout(60_000);

const { llm, spawn } = useAgentHarness();

/** A stdio "server" that never says anything. */
function silentServer(marker: string) {
  return { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)", marker] };
}

describe("servers that never answer", () => {
  test("past the connect timeout: a non-fatal error naming the setting; the turn goes on", async () => {
    const home = mockHome(llm().url);
    writeFileSync(join(home, "config.json"), JSON.stringify({ mcp: { connect_timeout_ms: 300 } }));
    writeMcpConfig(home, { silent: silentServer(`shard-mcp-silent-${process.pid}-a`) });
    const agent = await spawn({ home });
    llm().enqueue({ steps: [{ text: "still here" }] });
    const events = await agent.prompt("hello");
    const error = events.find((m) => m.type === "error");
    expect(error).toMatchObject({ code: "TOOL_ERROR", fatal: false });
    expect(error?.message).toBe(
      'MCP server "silent" did not start within 0.3 s (mcp.connect_timeout_ms in config.json)',
    );
    expect(events.find((m) => m.type === "turn_end")?.end_reason).toBe("completed");
    expect(JSON.stringify(events)).toContain("still here");
  });

  test("closing the agent while a server starts ends both at once", async () => {
    const marker = `shard-mcp-silent-${process.pid}-b`;
    const home = mockHome(llm().url);
    writeMcpConfig(home, { silent: silentServer(marker) });
    const agent = await spawn({ home });
    const from = agent.events.length;
    expect((await agent.request({ type: "prompt", message: "hello" })).success).toBe(true);
    await agent.waitType("turn_start", from);
    // The server process exists: the turn is waiting for it to answer (30 s by default).
    while (pidsWith(marker).length === 0) await Bun.sleep(20);
    // The harness kills an agent that takes 10 s to close; a clean exit is 0.
    expect(await agent.close()).toBe(0);
    expect(pidsWith(marker)).toEqual([]);
  });
});
