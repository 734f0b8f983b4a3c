/**
 * The tool list is live: a server's `notifications/tools/list_changed` reaches the model at its
 * next request, even within the turn. And a mode's `tools` allows MCP tools by pattern
 * (`mcp__growing__*`), new ones included. The server is test/mcp/fixtures/growing-server.ts.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { AgentProcess, Msg } from "../agent/support/agent-process.ts";
import { mockHome } from "../agent/support/agent-process.ts";
import { useAgentHarness } from "../agent/support/harness.ts";
import { writeMcpConfig } from "./support.ts";

setDefaultTimeout(60_000);

const { llm, spawn } = useAgentHarness();
const GROWING = resolve(import.meta.dir, "fixtures/growing-server.ts");

async function allowNext(agent: AgentProcess, from: number, answered: Set<string>): Promise<Msg> {
  const ask = await agent.waitFor(
    (m) => m.type === "permission_request" && !answered.has(m.request_id),
    from,
  );
  answered.add(ask.request_id);
  const res = await agent.request({
    type: "permission_response",
    request_id: ask.request_id,
    choice_id: "allow_once",
  });
  expect(res.success).toBe(true);
  return ask;
}

function offered(index: number): string[] {
  return llm().requests[index]?.body.tools.map((t: Msg) => t.function.name) ?? [];
}

describe("a live MCP tool list", () => {
  test("list_changed reaches the model's next request; a mode allows MCP tools by pattern", async () => {
    const home = mockHome(llm().url);
    writeMcpConfig(home, { growing: { command: process.execPath, args: [GROWING] } });
    mkdirSync(join(home, "modes"));
    writeFileSync(
      join(home, "modes", "mcp-only.md"),
      "---\nname: mcp-only\ndescription: read and the growing server\ntools: read, mcp__growing__*\n---\nOnly these.\n",
    );
    const agent = await spawn({ home, args: ["--mode", "mcp-only"] });

    llm().enqueue(
      { steps: [{ tool_call: { name: "mcp__growing__grow", args: {} } }] },
      { steps: [{ tool_call: { name: "mcp__growing__grown", args: {} } }] },
      { steps: [{ text: "done" }] },
    );
    const from = agent.events.length;
    const before = llm().requests.length;
    expect((await agent.request({ type: "prompt", message: "grow" })).success).toBe(true);
    const answered = new Set<string>();
    expect((await allowNext(agent, from, answered)).tool_name).toBe("mcp__growing__grow");
    expect((await allowNext(agent, from, answered)).tool_name).toBe("mcp__growing__grown");
    const events = await agent.waitTurnEnd(from);
    const results = events.filter((m) => m.type === "tool_result").map((m) => m.content);
    expect(results).toEqual([
      { kind: "text", text: "grew" },
      { kind: "text", text: "called grown" },
    ]);
    // Only what the mode allows, by pattern; the new tool from the request right after the change.
    expect(offered(before).sort()).toEqual(["mcp__growing__grow", "read"]);
    expect(offered(before + 1).sort()).toEqual(["mcp__growing__grow", "mcp__growing__grown", "read"]);
  });
});
