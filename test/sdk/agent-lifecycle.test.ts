/**
 * Deleting and ephemeral agents through the SDK against a real in-process daemon spawning real
 * `shard agent` children on the mock LLM: `agent.delete({ session })` on the handle, and
 * `createAgent({ ephemeral: true })` that leaves nothing behind once the script's client closes.
 */

import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { connectDaemon } from "../../sdk/src/daemon-client.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer({ clearRequestsBeforeEach: true });
const startDaemon = useDaemonHarnesses(llm);

const sessionOf = (home: string, agentId: string): string =>
  JSON.parse(readFileSync(join(home, "agents", agentId, "manifest.json"), "utf8")).session_id;

describe("agent.delete on the handle", () => {
  test("deletes the agent (its session too with { session: true }) and ends the handle", async () => {
    const h = await startDaemon();
    const client = await connectDaemon({ socketPath: h.socketPath });
    const kept = await client.createAgent({ cwd: h.cwd, model: "mock/chat" });
    const dropped = await client.createAgent({ cwd: h.cwd, model: "mock/chat" });
    const keptId = kept.id ?? "";
    const droppedId = dropped.id ?? "";
    const keptSession = sessionOf(h.home, keptId);
    const droppedSession = sessionOf(h.home, droppedId);

    await kept.delete();
    await dropped.delete({ session: true });
    expect(await client.listAgents()).toEqual([]);
    expect(existsSync(join(h.home, "sessions", keptSession))).toBe(true);
    expect(existsSync(join(h.home, "sessions", droppedSession))).toBe(false);
    // The handle has ended: its stream finishes, a prompt is refused.
    const events = [];
    for await (const event of dropped.events()) events.push(event);
    await expect(dropped.prompt("hi")).rejects.toMatchObject({ code: expect.any(String) });
    client.close();
  });
});

describe("createAgent({ ephemeral: true })", () => {
  test("the agent goes when the creating client closes; another client's agents stay", async () => {
    const h = await startDaemon();
    const watcher = await h.unixClient();
    const script = await connectDaemon({ socketPath: h.socketPath });
    const durable = await script.createAgent({ cwd: h.cwd, model: "mock/chat" });
    const scratch = await script.createAgent({ cwd: h.cwd, model: "mock/chat", ephemeral: true });
    llm().enqueue({ steps: [{ text: "done" }] });
    expect((await scratch.run("work")).text).toBe("done");

    const from = watcher.messages.length;
    script.close();
    const deleted = await watcher.waitFor((m) => m.type === "agent_deleted", from);
    expect(deleted.agent_id).toBe(scratch.id);
    const listed = (await watcher.ok({ type: "agent.list" })).agents.map(
      (a: { agent_id: string }) => a.agent_id,
    );
    expect(listed).toEqual([durable.id]);
  });
});
