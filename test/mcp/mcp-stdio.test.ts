// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references in config text, deliberately literal.
/**
 * MCP servers from $SHARD_HOME/mcp.json through a real `shard agent` (docs/mcp.md), against the
 * real server-everything over stdio, inside the agent's default sandbox: its tools reach the
 * model, every call goes through the permission gate, images pass through, a tool error is an
 * error result, and a server killed mid-call is an error result, after which the next turn
 * starts it again.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync } from "node:fs";
import type { AgentProcess, Msg } from "../agent/support/agent-process.ts";
import { mockHome } from "../agent/support/agent-process.ts";
import { activeSession } from "../agent/support/events.ts";
import { useAgentHarness } from "../agent/support/harness.ts";
import { everythingStdio, pidsWith, programsWith, writeMcpConfig } from "./support.ts";

setDefaultTimeout(60_000);

const { llm, spawn } = useAgentHarness();

let markers = 0;
function marker(): string {
  return `shard-mcp-test-${process.pid}-${++markers}`;
}

async function agentWithEverything(tag: string): Promise<AgentProcess> {
  const home = mockHome(llm().url);
  writeMcpConfig(home, { everything: everythingStdio(tag) });
  return spawn({ home });
}

/** Queues "call this tool, then say done", prompts, allows the permission question once. */
async function callThroughGate(agent: AgentProcess, name: string, args: Record<string, unknown>) {
  llm().enqueue({ steps: [{ tool_call: { name, args } }] }, { steps: [{ text: "done" }] });
  const from = agent.events.length;
  const requestsBefore = llm().requests.length;
  const res = await agent.request({ type: "prompt", message: `please run ${name}` });
  expect(res.success).toBe(true);
  const ask = await agent.waitType("permission_request", from);
  const answer = await agent.request({
    type: "permission_response",
    request_id: ask.request_id,
    choice_id: "allow_once",
  });
  expect(answer.success).toBe(true);
  return { from, ask, requestsBefore };
}

describe("MCP over stdio (server-everything, sandboxed)", () => {
  test("its tools reach the model; echo runs through the gate, which names server, tool and arguments; nothing starts before the first turn", async () => {
    const tag = marker();
    const agent = await agentWithEverything(tag);
    await agent.barrier();
    // Lazy: the agent is up and no server runs.
    expect(pidsWith(tag)).toEqual([]);

    const { from, ask, requestsBefore } = await callThroughGate(agent, "mcp__everything__echo", {
      message: "hello-mcp",
    });
    expect(ask.tool_name).toBe("mcp__everything__echo");
    expect(ask.input).toEqual({ message: "hello-mcp" });
    expect(ask.prompt).toBe("Allow MCP server everything to run its tool echo?");
    expect(ask.details).toContainEqual({ label: "MCP server", value: "everything", format: "text" });
    expect(ask.details).toContainEqual({ label: "Tool", value: "echo", format: "text" });
    const argsDetail = ask.details.find((d: Msg) => d.label === "Arguments");
    expect(JSON.parse(argsDetail.value)).toEqual({ message: "hello-mcp" });

    const result = await agent.waitType("tool_result", from);
    expect(result.is_error).toBe(false);
    expect(result.content).toEqual({ kind: "text", text: "Echo: hello-mcp" });
    await agent.waitTurnEnd(from);

    // The first provider request of the turn offered the server's tools with their schemas.
    const offered = llm().requests[requestsBefore]?.body.tools.map((t: Msg) => t.function);
    const echo = offered.find((f: Msg) => f.name === "mcp__everything__echo");
    expect(echo.description).toBe("Echoes back the input string");
    expect(echo.parameters.properties.message.type).toBe("string");
    expect(echo.parameters.required).toEqual(["message"]);
    expect(offered.map((f: Msg) => f.name)).toContain("mcp__everything__get-tiny-image");
    expect(offered.map((f: Msg) => f.name)).toContain("bash");
    // The model saw the server's answer.
    expect(JSON.stringify(llm().requests[requestsBefore + 1]?.body)).toContain("Echo: hello-mcp");

    // It ran in the agent's sandbox, and wrote nothing to the project.
    expect(programsWith(tag).some((p) => p.endsWith("bwrap"))).toBe(true);
    expect(readdirSync(agent.cwd)).toEqual([]);
    // The server stops with the agent.
    await agent.close();
    expect(pidsWith(tag)).toEqual([]);
  });

  test("a tool that returns an image gives an image result the model receives", async () => {
    const agent = await agentWithEverything(marker());
    const { from, requestsBefore } = await callThroughGate(agent, "mcp__everything__get-tiny-image", {});
    const result = await agent.waitType("tool_result", from);
    expect(result.is_error).toBe(false);
    expect(result.content.text).toContain("Here's the image you requested:");
    expect(result.images).toHaveLength(1);
    expect(result.images[0].mime_type).toBe("image/png");
    expect(result.images[0].data.startsWith("iVBORw0KGgo")).toBe(true);
    await agent.waitTurnEnd(from);
    expect(JSON.stringify(llm().requests[requestsBefore + 1]?.body)).toContain(
      "data:image/png;base64,iVBORw0KGgo",
    );
  });

  test("a tool's error is a tool result with is_error, and the agent goes on (a server with the sandbox off)", async () => {
    const tag = marker();
    const home = mockHome(llm().url);
    writeMcpConfig(home, { everything: everythingStdio(tag, { sandbox: "off" }) });
    const agent = await spawn({ home });
    const { from } = await callThroughGate(agent, "mcp__everything__get-sum", { a: "one", b: 2 });
    const result = await agent.waitType("tool_result", from);
    expect(result.is_error).toBe(true);
    expect(result.content.kind).toBe("error");
    expect(result.content.message).toContain("get-sum");
    const end = await agent.waitType("turn_end", from);
    expect(end.end_reason).toBe("completed");
    // `"sandbox": "off"`: the server runs unconfined.
    const programs = programsWith(tag);
    expect(programs).toEqual([process.execPath]);
  });

  test("a server killed mid-call gives is_error and a non-fatal error event; the next turn starts it again", async () => {
    const tag = marker();
    const agent = await agentWithEverything(tag);
    const { from } = await callThroughGate(agent, "mcp__everything__trigger-long-running-operation", {
      duration: 60,
      steps: 60,
    });
    // Its first progress notification: the call is running in the server now.
    await agent.waitType("tool_output", from);
    const pids = pidsWith(tag);
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) process.kill(pid, "SIGKILL");

    const result = await agent.waitType("tool_result", from);
    expect(result.is_error).toBe(true);
    expect(result.content.message).toContain('MCP server "everything" stopped during the call');
    const error = await agent.waitFor((m) => m.type === "error" && m.code === "TOOL_ERROR", from);
    expect(error.fatal).toBe(false);
    expect(error.message).toContain('MCP server "everything" stopped unexpectedly');
    const end = await agent.waitTurnEnd(from);
    expect(end.find((m) => m.type === "turn_end")?.end_reason).toBe("completed");

    const next = await callThroughGate(agent, "mcp__everything__echo", { message: "back again" });
    const again = await agent.waitType("tool_result", next.from);
    expect(again.is_error).toBe(false);
    expect(again.content.text).toBe("Echo: back again");
    await agent.waitTurnEnd(next.from);
  });

  test("a server that cannot start is a non-fatal error and the others work; a secret from mcp.json is in no event, even in a result that printed it", async () => {
    const secret = "stdio-secret-9c1d7e3a5b";
    const home = mockHome(llm().url);
    writeMcpConfig(home, {
      broken: { command: "/nonexistent/mcp-server", env: { API_TOKEN: "${SHARD_TEST_SECRET}" } },
      everything: everythingStdio(marker(), { env: { API_TOKEN: "${SHARD_TEST_SECRET}" } }),
    });
    const agent = await spawn({ home, env: { SHARD_TEST_SECRET: secret } });
    const { from, requestsBefore } = await callThroughGate(agent, "mcp__everything__get-env", {});
    const failed = await agent.waitFor((m) => m.type === "error" && m.message.includes('"broken"'), from);
    expect(failed).toMatchObject({ code: "TOOL_ERROR", fatal: false });
    expect(failed.message).toContain('MCP server "broken" could not start');
    const result = await agent.waitType("tool_result", from);
    expect(result.is_error).toBe(false);
    // The server printed its environment; the secret is scrubbed from what the model and clients see.
    expect(result.content.text).toContain('"API_TOKEN": "[redacted]"');
    await agent.waitTurnEnd(from);
    const offered = llm().requests[requestsBefore]?.body.tools.map((t: Msg) => t.function.name);
    expect(offered.some((n: string) => n.startsWith("mcp__broken__"))).toBe(false);
    await agent.close();
    expect(JSON.stringify(agent.events)).not.toContain(secret);
    expect(agent.stderr).not.toContain(secret);
    expect(JSON.stringify(llm().requests.map((r) => r.body))).not.toContain(secret);
  });

  test("a question about an MCP call open when the agent was killed is asked again on resume, and the call runs", async () => {
    const tag = marker();
    const home = mockHome(llm().url);
    writeMcpConfig(home, { everything: everythingStdio(tag) });
    const agent = await spawn({ home });
    llm().enqueue({
      steps: [{ tool_call: { name: "mcp__everything__echo", args: { message: "after resume" } } }],
    });
    const from = agent.events.length;
    expect((await agent.request({ type: "prompt", message: "echo" })).success).toBe(true);
    await agent.waitType("permission_request", from);
    const sessionId = await activeSession(agent);
    await agent.kill9();

    llm().enqueue({ steps: [{ text: "done" }] });
    const resumed = await spawn({ home, cwd: agent.cwd, args: ["--session", sessionId] });
    const ask = await resumed.waitType("permission_request");
    expect(ask.tool_name).toBe("mcp__everything__echo");
    await resumed.request({
      type: "permission_response",
      request_id: ask.request_id,
      choice_id: "allow_once",
    });
    const result = await resumed.waitType("tool_result");
    expect(result.is_error).toBe(false);
    expect(result.content.text).toBe("Echo: after resume");
    await resumed.waitType("turn_end");
  });
});
