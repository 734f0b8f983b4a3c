/**
 * `agent.rename` and `agent.delete` (docs/protocol-additions.md §15) over the daemon's real unix
 * socket, with real runtimes: every client hears the change, a delete survives a restart and a
 * crash between its intent and its end, and a parent with a running subagent is refused.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, renameSync } from "node:fs";
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
