/**
 * `agent.rename` and `agent.delete` (docs/protocol-additions.md §15) over the daemon's real unix
 * socket, with real runtimes: every client hears the change, a delete survives a restart and a
 * crash between its intent and its end, and a parent with a running subagent is refused.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { childAgent } from "./support/child-agent.ts";
import type { Msg } from "./support/daemon-client.ts";
import { useDaemonHarnesses } from "./support/daemon-harness.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);

const ids = (listed: Msg) => listed.agents.map((a: Msg) => a.agent_id);

describe("agent.rename", () => {
  test("renames durably and tells every client; a blank or unknown one is refused", async () => {
    const first = await startHarness();
    const a = await first.unixClient();
    const b = await first.unixClient();
    const agentId = await first.createAgent(a, { name: "old" });
    const from = b.messages.length;
    const renamed = await a.ok({ type: "agent.rename", agent_id: agentId, name: "  api server  " });
    expect(renamed.info).toMatchObject({ agent_id: agentId, name: "api server" });
    const heard = await b.waitFor((m) => m.type === "agent_updated", from);
    expect(heard).toMatchObject({ agent_id: agentId, info: { name: "api server" } });

    const blank = await a.request({ type: "agent.rename", agent_id: agentId, name: "   " });
    expect(blank.error.code).toBe("INVALID_REQUEST");
    const tooLong = await a.request({ type: "agent.rename", agent_id: agentId, name: "x".repeat(201) });
    expect(tooLong.error.code).toBe("INVALID_REQUEST");
    const unknown = await a.request({ type: "agent.rename", agent_id: "agent-nobody", name: "x" });
    expect(unknown.error.code).toBe("NOT_FOUND");

    await first.stop();
    const again = await startHarness({ home: first.home });
    const c = await again.unixClient();
    expect((await c.ok({ type: "agent.list" })).agents[0].name).toBe("api server");
  });
});

describe("agent.delete", () => {
  test("kills the runtime, removes the agent for every client and for good", async () => {
    const first = await startHarness();
    const a = await first.unixClient();
    const b = await first.unixClient();
    const keep = await first.createAgent(a, { name: "keep" });
    const gone = await first.createAgent(a, { name: "gone" });
    await b.ok({ type: "agent.attach", agent_id: gone });
    expect((await a.ok({ type: "agent.status", agent_id: gone })).agents[0].runtime_state).toBe("running");

    const from = b.messages.length;
    expect(await a.ok({ type: "agent.delete", agent_id: gone })).toBeUndefined();
    const heard = await b.waitFor((m) => m.type === "agent_deleted", from);
    expect(heard.agent_id).toBe(gone);
    expect(ids(await b.ok({ type: "agent.list" }))).toEqual([keep]);
    expect(existsSync(join(first.home, "agents", gone))).toBe(false);
    expect(existsSync(join(first.home, "logs", "agents", `${gone}.log`))).toBe(false);
    for (const type of ["agent.attach", "agent.status", "agent.delete"]) {
      expect((await a.request({ type, agent_id: gone })).error.code).toBe("NOT_FOUND");
    }
    expect((await a.request({ type: "prompt", agent_id: gone, message: "hi" })).success).toBe(false);

    await first.stop();
    const again = await startHarness({ home: first.home });
    expect(ids(await (await again.unixClient()).ok({ type: "agent.list" }))).toEqual([keep]);
  });

  test("a crash after the delete's intent: the next start finishes it", async () => {
    const first = await startHarness();
    const a = await first.unixClient();
    const keep = await first.createAgent(a);
    const doomed = await first.createAgent(a);
    await first.stop();
    // What the delete's first, atomic step leaves if the daemon dies right after it.
    renameSync(join(first.home, "agents", doomed), join(first.home, "agents", `.deleted-${doomed}`));

    const again = await startHarness({ home: first.home });
    expect(ids(await (await again.unixClient()).ok({ type: "agent.list" }))).toEqual([keep]);
    expect(existsSync(join(first.home, "agents", `.deleted-${doomed}`))).toBe(false);
    expect(existsSync(join(first.home, "logs", "agents", `${doomed}.log`))).toBe(false);
  });

  test("refused with CONFLICT while a subagent under it runs; a finished one stays listed", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await harness.createAgent(a);
    const finished = await childAgent(llm(), a, parent, "done");
    llm().enqueue({ when: "TASK-BUSY", steps: [{ hold: "child-busy" }, { text: "late" }] });
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "busy",
      task: "TASK-BUSY",
    });
    const busy = String(created.runs[0].agent_id);
    await llm().waitForHold("child-busy");

    const refused = await a.request({ type: "agent.delete", agent_id: parent });
    expect(refused.error.code).toBe("CONFLICT");
    expect(refused.error.message).toContain(busy);
    expect(ids(await a.ok({ type: "agent.list" })).sort()).toEqual([parent, finished, busy].sort());

    await a.ok({ type: "agent.kill", agent_id: busy, force: true });
    llm().release("child-busy");
    await a.ok({ type: "agent.delete", agent_id: parent });
    const listed = await a.ok({ type: "agent.list" });
    expect(ids(listed).sort()).toEqual([finished, busy].sort());
    // The children keep the record of where they came from; lists show them at the top level.
    expect(listed.agents.map((x: Msg) => x.parent_agent_id)).toEqual([parent, parent]);
  });
});

describe("agent.delete with session", () => {
  const sessionOf = (home: string, agentId: string): string =>
    JSON.parse(readFileSync(join(home, "agents", agentId, "manifest.json"), "utf8")).session_id;

  test("removes the session's files too; without it the session stays listed", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const kept = await harness.createAgent(a);
    const dropped = await harness.createAgent(a);
    const keptSession = sessionOf(harness.home, kept);
    const droppedSession = sessionOf(harness.home, dropped);
    expect(existsSync(join(harness.home, "sessions", droppedSession))).toBe(true);
    // Each session's checkpoints (docs/checkpoints.md) go with the session, and only then.
    for (const session of [keptSession, droppedSession]) {
      mkdirSync(join(harness.home, "checkpoints", session), { recursive: true });
      writeFileSync(join(harness.home, "checkpoints", session, "HEAD"), "ref: refs/heads/main\n");
    }

    await a.ok({ type: "agent.delete", agent_id: kept });
    await a.ok({ type: "agent.delete", agent_id: dropped, session: true });
    expect(existsSync(join(harness.home, "sessions", keptSession))).toBe(true);
    expect(existsSync(join(harness.home, "sessions", droppedSession))).toBe(false);
    expect(existsSync(join(harness.home, "checkpoints", keptSession))).toBe(true);
    expect(existsSync(join(harness.home, "checkpoints", droppedSession))).toBe(false);
    const sessions = (await a.ok({ type: "session.list" })).sessions.map((s: Msg) => s.session_id);
    expect(sessions).toEqual([keptSession]);
  });

  test("a crash after the intent: the next start removes the session too", async () => {
    const first = await startHarness();
    const a = await first.unixClient();
    const doomed = await first.createAgent(a);
    const sessionId = sessionOf(first.home, doomed);
    await first.stop();
    // What the delete's first, atomic step leaves when it takes the session too.
    renameSync(
      join(first.home, "agents", doomed),
      join(first.home, "agents", `.deleted-with-session-${doomed}`),
    );

    const again = await startHarness({ home: first.home });
    expect(ids(await (await again.unixClient()).ok({ type: "agent.list" }))).toEqual([]);
    expect(existsSync(join(first.home, "sessions", sessionId))).toBe(false);
    expect(existsSync(join(first.home, "agents", `.deleted-with-session-${doomed}`))).toBe(false);
  });
});

describe("agent.create ephemeral", () => {
  test("the agent is deleted when the connection that created it closes", async () => {
    const harness = await startHarness();
    const creator = await harness.unixClient();
    const watcher = await harness.unixClient();
    const durable = await harness.createAgent(creator);
    const ephemeral = await harness.createAgent(creator, { ephemeral: true });
    // Another client's attachment does not keep it.
    await watcher.ok({ type: "agent.attach", agent_id: ephemeral });
    expect(ids(await watcher.ok({ type: "agent.list" })).sort()).toEqual([durable, ephemeral].sort());

    const from = watcher.messages.length;
    creator.close();
    const heard = await watcher.waitFor((m) => m.type === "agent_deleted", from);
    expect(heard.agent_id).toBe(ephemeral);
    expect(ids(await watcher.ok({ type: "agent.list" }))).toEqual([durable]);
    expect(existsSync(join(harness.home, "agents", ephemeral))).toBe(false);
  });

  test("one left behind by a daemon that died is deleted at the next start", async () => {
    const first = await startHarness();
    const a = await first.unixClient();
    const keep = await first.createAgent(a);
    const orphan = await first.createAgent(a);
    await first.stop();
    // What a daemon killed -9 leaves: the manifest of an ephemeral agent whose creator is gone.
    const path = join(first.home, "agents", orphan, "manifest.json");
    writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), ephemeral: true }));

    const again = await startHarness({ home: first.home });
    expect(ids(await (await again.unixClient()).ok({ type: "agent.list" }))).toEqual([keep]);
    expect(existsSync(join(first.home, "agents", orphan))).toBe(false);
  });
});

describe("agent.create failures leave no agent", () => {
  test("an unknown provider names the known ones; a name a provider does not list is refused", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const unknownProvider = await a.request({ type: "agent.create", cwd: harness.cwd, model: "nope/x" });
    expect(unknownProvider.error.code).toBe("INVALID_REQUEST");
    expect(unknownProvider.error.message).toContain('no provider "nope"');
    expect(unknownProvider.error.message).toContain("mock");
    expect(unknownProvider.error.message).not.toContain("Use provider/model");

    const unlisted = await a.request({ type: "agent.create", cwd: harness.cwd, model: "mock/nope" });
    expect(unlisted.error.code).toBe("INVALID_REQUEST");
    expect(unlisted.error.message).toContain("mock/chat");

    expect(ids(await a.ok({ type: "agent.list" }))).toEqual([]);
    expect(existsSync(join(harness.home, "agents")) ? readdirSync(join(harness.home, "agents")) : []).toEqual(
      [],
    );
  });

  test("a runtime that refuses the agent's settings at start: the agent is not kept", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const watcher = await harness.unixClient();
    const from = watcher.messages.length;
    const res = await a.request({
      type: "agent.create",
      cwd: harness.cwd,
      model: "mock/chat",
      mode: "nosuchmode",
    });
    expect(res.error.code).toBe("RUNTIME_START_FAILED");
    expect(res.error.message).toContain('unknown mode "nosuchmode"');
    expect(res.error.data).toBeUndefined();
    const spawned = await watcher.waitFor((m) => m.type === "agent_spawned", from);
    const deleted = await watcher.waitFor((m) => m.type === "agent_deleted", from);
    expect(deleted.agent_id).toBe(spawned.agent_id);
    expect(ids(await a.ok({ type: "agent.list" }))).toEqual([]);
    expect(readdirSync(join(harness.home, "agents"))).toEqual([]);
  });
});
