/**
 * Session-first commands and legacy adoption through the daemon (docs/protocol-additions.md §3,
 * docs/protocol.md §10.2): list, activate (adopting once), and `agent.create` with `session_id` and
 * its exact error mapping.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { sessionFilePath } from "../../src/session/paths.ts";
import { AgentProcess, tempDir } from "../agent/support/agent-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import type { Msg } from "./support/daemon-client.ts";
import { type DaemonHarness, useDaemonHarnesses } from "./support/daemon-harness.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
let harness: DaemonHarness | undefined;
const startHarness = useDaemonHarnesses(llm);

/** A session written by a plain `shard agent` (no daemon) on the harness's home. */
async function directSession(home: string, cwd: string, prompt: string): Promise<string> {
  const agent = new AgentProcess({ llmUrl: llm().url, home, cwd });
  const sync = await agent.waitType("sync");
  await agent.prompt(prompt);
  await agent.close();
  return sync.session_id;
}

describe("session.list and session.activate", () => {
  test("lists sessions (filtered by cwd) and activates the agent that drives one", async () => {
    harness = await startHarness();
    const c = await harness.unixClient();
    const agentId = await harness.createAgent(c);
    await c.ok({ type: "agent.attach", agent_id: agentId });
    const from = c.messages.length;
    await c.ok({ type: "prompt", agent_id: agentId, message: "remember papaya" });
    await c.waitAgent(agentId, "turn_end", from);
    const all = await c.ok({ type: "session.list" });
    expect(all.sessions).toEqual([expect.objectContaining({ title: "remember papaya", cwd: harness.cwd })]);
    expect((await c.ok({ type: "session.list", cwd: tempDir("other") })).sessions).toEqual([]);
    const sessionId = all.sessions[0].session_id;
    expect(await c.ok({ type: "session.activate", session_id: sessionId })).toEqual({
      agent_id: agentId,
      session_id: sessionId,
    });
  });

  test("activating a session no agent drives adopts it once; activating again returns the same agent", async () => {
    harness = await startHarness();
    const sessionId = await directSession(harness.home, harness.cwd, "the colour is teal");
    const c = await harness.unixClient();
    const first = await c.ok({ type: "session.activate", session_id: sessionId });
    expect(first.session_id).toBe(sessionId);
    const spawned = await c.waitType("agent_spawned");
    expect(spawned.agent_id).toBe(first.agent_id);
    expect(await c.ok({ type: "session.activate", session_id: sessionId })).toEqual(first);
    await c.ok({ type: "agent.attach", agent_id: first.agent_id });
    const sync = await c.waitAgent(first.agent_id, "sync");
    expect(sync.session_id).toBe(sessionId);
    expect(JSON.stringify(sync.live_window)).toContain("the colour is teal");
    const missing = await c.request({ type: "session.activate", session_id: "ses_doesnotexist" });
    expect(missing.error.code).toBe("NOT_FOUND");
  });
});

describe("agent.create with session_id (legacy adoption)", () => {
  test("adopts once; again is INVALID_REQUEST; missing is NOT_FOUND; another project is INVALID_REQUEST", async () => {
    harness = await startHarness();
    const sessionId = await directSession(harness.home, harness.cwd, "adopt me");
    const c = await harness.unixClient();
    const wrongCwd = await c.request({
      type: "agent.create",
      cwd: tempDir("elsewhere"),
      session_id: sessionId,
    });
    expect(wrongCwd.error.code).toBe("INVALID_REQUEST");
    const adopted = await c.ok({ type: "agent.create", cwd: harness.cwd, session_id: sessionId });
    const listed = await c.ok({ type: "agent.list" });
    expect(listed.agents.map((a: Msg) => a.agent_id)).toEqual([adopted.agent_id]);
    const again = await c.request({ type: "agent.create", cwd: harness.cwd, session_id: sessionId });
    expect(again.error.code).toBe("INVALID_REQUEST");
    expect(again.error.message).toContain("already adopted");
    const missing = await c.request({
      type: "agent.create",
      cwd: harness.cwd,
      session_id: "ses_nosuchsession",
    });
    expect(missing.error.code).toBe("NOT_FOUND");
  });

  test("a session that cannot be restored is SESSION_CORRUPT and gets no manifest", async () => {
    harness = await startHarness();
    const sessionId = await directSession(harness.home, harness.cwd, "soon broken");
    const path = sessionFilePath(harness.home, sessionId);
    const lines = readFileSync(path, "utf8").split("\n");
    lines.splice(1, 0, "{ this is not json");
    writeFileSync(path, lines.join("\n"));
    const c = await harness.unixClient();
    const res = await c.request({ type: "agent.create", cwd: harness.cwd, session_id: sessionId });
    expect(res.error.code).toBe("SESSION_CORRUPT");
    const activate = await c.request({ type: "session.activate", session_id: sessionId });
    expect(activate.error.code).toBe("SESSION_CORRUPT");
    expect((await c.ok({ type: "agent.list" })).agents).toEqual([]);
  });
});
