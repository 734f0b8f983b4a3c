/**
 * Issue 7 A.1 through a real `shard agent` process: the mock model asks for a path that goes
 * through a symlink and then `..`. Spelled lexically it leaves the working directory; the
 * kernel keeps it inside. The file the tool opens must be the one the gate judged (and a
 * path that really leaves asks, showing where it really goes).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MockReply } from "../support/mock-llm/types.ts";
import { type AgentProcess, tempDir } from "./support/agent-process.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

// The gate's own judgement of paths, without the sandbox's boundary in front of it (which refuses
// a write outside cwd before any question: test/sandbox/).
const { llm, start } = useAgentHarness({ args: ["--sandbox", "off"] });

const SECRET = "AGENT-OUTSIDE-SECRET";

/**
 * <base>/top/proj is cwd, with `s -> a/b`. Lexically `s/../../outside` is <base>/top/outside,
 * where the secret is; physically it is <cwd>/outside. One `..` more: lexically
 * <base>/outside, physically <base>/top/outside.
 */
function project(): { base: string; cwd: string; outside: string } {
  const base = tempDir("escape");
  const cwd = join(base, "top", "proj");
  const outside = join(base, "top", "outside");
  mkdirSync(join(cwd, "a", "b"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.txt"), `${SECRET}\n`);
  symlinkSync("a/b", join(cwd, "s"));
  return { base, cwd, outside };
}

async function toolTurn(agent: AgentProcess, name: string, args: Record<string, unknown>) {
  const reply: MockReply = { steps: [{ tool_call: { name, args } }] };
  llm().enqueue(reply, { steps: [{ text: "done" }] });
  const from = agent.events.length;
  const requestsBefore = llm().requests.length;
  const res = await agent.request({ type: "prompt", message: `please run ${name}` });
  expect(res.success).toBe(true);
  return { from, requestsBefore };
}

describe("symlink + `..` through a real agent (negative)", () => {
  test("read of s/../../outside/secret.txt asks with the real path and never returns the outside file", async () => {
    const { cwd } = project();
    const agent = start({ cwd });
    const { from, requestsBefore } = await toolTurn(agent, "read", { path: "s/../../outside/secret.txt" });
    // Spelled as leaving cwd, really inside it: not auto-allowed, and the prompt says where it goes.
    const req = await agent.waitType("permission_request", from);
    expect(req.prompt).toBe("Allow read: outside/secret.txt?");
    expect(req.details).toContainEqual({
      label: "Path",
      value: join(cwd, "outside", "secret.txt"),
      format: "path",
    });
    agent.send({ type: "permission_response", request_id: req.request_id, choice_id: "allow_once" });
    const result = await agent.waitType("tool_result", from);
    await agent.waitTurnEnd(from);
    // Judged and opened: <cwd>/outside/secret.txt, which does not exist.
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).toContain("File not found: outside/secret.txt");
    expect(JSON.stringify(llm().requests[requestsBefore + 1]?.body)).not.toContain(SECRET);
  });

  test("write that really leaves through the link asks with the real path and writes exactly there", async () => {
    const { base, cwd, outside } = project();
    const agent = start({ cwd });
    const { from } = await toolTurn(agent, "write", { path: "s/../../../outside/new.txt", content: "made" });
    const req = await agent.waitType("permission_request", from);
    const real = join(outside, "new.txt");
    expect(req.prompt).toBe(`Allow write outside the working directory: ${real}?`);
    expect(req.details).toContainEqual({
      label: "Path (outside the working directory)",
      value: real,
      format: "path",
    });
    agent.send({ type: "permission_response", request_id: req.request_id, choice_id: "allow_once" });
    const result = await agent.waitType("tool_result", from);
    await agent.waitTurnEnd(from);
    expect(result.is_error).toBe(false);
    expect(readFileSync(real, "utf8")).toBe("made");
    expect(existsSync(join(base, "outside"))).toBe(false); // where the spelling pointed
  });
});
