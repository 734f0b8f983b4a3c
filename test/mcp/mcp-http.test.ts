// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references in config text, deliberately literal.
/**
 * An MCP server over Streamable HTTP (docs/mcp.md): the real server-everything in its
 * `streamableHttp` mode, reached from the runtime with a header whose value comes from
 * `${VAR}`. Its tools reach the model, echo and an image come back through the gate, and the
 * header's secret appears in nothing the agent says.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mockHome } from "../agent/support/agent-process.ts";
import { useAgentHarness } from "../agent/support/harness.ts";
import { CHILD_ENV } from "../support/child-env.ts";
import { EVERYTHING, writeMcpConfig } from "./support.ts";

setDefaultTimeout(60_000);

const { llm, spawn } = useAgentHarness();
const SECRET = "mcp-http-secret-4f1b9c2e7d";

let server: ReturnType<typeof Bun.spawn> | undefined;
/** In front of the server: records the Authorization header of every request it passes on. */
let front: ReturnType<typeof Bun.serve> | undefined;
const authorizations: (string | null)[] = [];
let url = "";

beforeAll(async () => {
  // A free port: bind one, let it go, hand it to the server.
  const probe = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = probe.port ?? 0;
  await probe.stop(true);
  server = Bun.spawn([process.execPath, EVERYTHING, "streamableHttp"], {
    env: { ...CHILD_ENV, PORT: String(port) },
    stdout: "ignore",
    stderr: "pipe",
  });
  // Ready once it says it listens (on stderr).
  const reader = (server.stderr as ReadableStream<Uint8Array>).getReader();
  let said = "";
  while (!said.includes("listening on port")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server-everything did not start: ${said}`);
    said += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  upstreamPort = port;
  front = startFront(0);
  url = `http://127.0.0.1:${front.port}/mcp`;
});

let upstreamPort = 0;

function startFront(port: number): ReturnType<typeof Bun.serve> {
  return Bun.serve({
    port,
    fetch: (req) => {
      authorizations.push(req.headers.get("authorization"));
      const target = new URL(req.url);
      target.port = String(upstreamPort);
      return fetch(new Request(target, req));
    },
  });
}

afterAll(async () => {
  await front?.stop(true);
  server?.kill("SIGKILL");
});

describe("MCP over Streamable HTTP (server-everything)", () => {
  test("tools listed, echo and an image through the gate; the header's secret is never shown", async () => {
    const home = mockHome(llm().url);
    writeMcpConfig(home, { web: { url, headers: { Authorization: "Bearer ${SHARD_TEST_MCP_TOKEN}" } } });
    const agent = await spawn({ home, env: { SHARD_TEST_MCP_TOKEN: SECRET } });

    llm().enqueue(
      { steps: [{ tool_call: { name: "mcp__web__echo", args: { message: "over http" } } }] },
      { steps: [{ tool_call: { name: "mcp__web__get-tiny-image", args: {} } }] },
      { steps: [{ text: "done" }] },
    );
    const from = agent.events.length;
    const requestsBefore = llm().requests.length;
    expect((await agent.request({ type: "prompt", message: "use the web server" })).success).toBe(true);
    for (let i = 0; i < 2; i++) {
      const ask = await agent.waitFor(
        (m) =>
          m.type === "permission_request" &&
          !agent.events.some((r) => r.type === "permission_resolved" && r.request_id === m.request_id),
        from,
      );
      expect(ask.details).toContainEqual({ label: "MCP server", value: "web", format: "text" });
      await agent.request({
        type: "permission_response",
        request_id: ask.request_id,
        choice_id: "allow_once",
      });
      await agent.waitFor((m) => m.type === "permission_resolved" && m.request_id === ask.request_id, from);
    }
    const events = await agent.waitTurnEnd(from);
    const results = events.filter((m) => m.type === "tool_result");
    expect(results.map((r) => r.is_error)).toEqual([false, false]);
    expect(results[0]?.content).toEqual({ kind: "text", text: "Echo: over http" });
    expect(results[1]?.images?.[0]?.mime_type).toBe("image/png");

    const offered = llm().requests[requestsBefore]?.body.tools.map(
      (t: { function: { name: string } }) => t.function.name,
    );
    expect(offered).toContain("mcp__web__echo");
    expect(offered).toContain("mcp__web__trigger-long-running-operation");

    // The header went to the server, expanded.
    expect(authorizations.length).toBeGreaterThan(0);
    expect(new Set(authorizations)).toEqual(new Set([`Bearer ${SECRET}`]));

    await agent.close();
    expect(JSON.stringify(agent.events)).not.toContain(SECRET);
    expect(agent.stderr).not.toContain(SECRET);
    expect(JSON.stringify(llm().requests.map((r) => r.body))).not.toContain(SECRET);
  });

  test("a server that goes away: is_error and a non-fatal error; once it is back, the next call connects afresh", async () => {
    const home = mockHome(llm().url);
    writeMcpConfig(home, { web: { url } });
    const agent = await spawn({ home });
    const echo = (message: string) => ({
      steps: [{ tool_call: { name: "mcp__web__echo", args: { message } } }],
    });
    const turn = async (message: string) => {
      llm().enqueue(echo(message), { steps: [{ text: "done" }] });
      const from = agent.events.length;
      expect((await agent.request({ type: "prompt", message })).success).toBe(true);
      const ask = await agent.waitType("permission_request", from);
      await agent.request({
        type: "permission_response",
        request_id: ask.request_id,
        choice_id: "allow_once",
      });
      return { from, events: await agent.waitTurnEnd(from) };
    };
    const first = await turn("one");
    expect(first.events.find((m) => m.type === "tool_result")?.content.text).toBe("Echo: one");

    // The server goes away (its front stops listening) after the turn started it.
    const port = front?.port ?? 0;
    await front?.stop(true);
    const second = await turn("two");
    const failed = second.events.find((m) => m.type === "tool_result");
    expect(failed?.is_error).toBe(true);
    expect(failed?.content.message).toContain('the connection to MCP server "web" failed');
    const error = second.events.find((m) => m.type === "error");
    expect(error).toMatchObject({ code: "TOOL_ERROR", fatal: false });
    expect(error?.message).toContain('MCP server "web" lost its connection');

    front = startFront(port);
    const third = await turn("three");
    const back = third.events.find((m) => m.type === "tool_result");
    expect(back?.is_error).toBe(false);
    expect(back?.content.text).toBe("Echo: three");
  });
});
