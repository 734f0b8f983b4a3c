/**
 * docs/protocol.md §5.4: attach (and new work) coalesces the start-up of a runtime generation, also
 * while the previous one is still stopping: the command waits for that exit, restores the
 * agent and answers (attach with the new generation's sync), never CONFLICT "is stopping".
 * The stopping runtime is a stand-in whose exit is held until the test releases it.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../agent/support/agent-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import type { DaemonClient, Msg } from "./support/daemon-client.ts";
import { type DaemonHarness, useDaemonHarnesses } from "./support/daemon-harness.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);
const RUNTIME = resolve(import.meta.dir, "support/held-exit-runtime.ts");

/** A harness whose runtimes hold their exit until `release` exists. */
async function heldExitHarness(): Promise<{ harness: DaemonHarness; release: string }> {
  const release = join(tempDir("release"), "release");
  const harness = await startHarness({ shardCommand: [process.execPath, RUNTIME, release] });
  return { harness, release };
}

/** Resolves once daemon.log says a start waits for the stopping runtime (a barrier, not a clock). */
async function startWaits(home: string, agentId: string): Promise<"waiting"> {
  const line = `agent ${agentId}: its start waits for the stopping runtime to exit`;
  const path = join(home, "logs", "daemon.log");
  while (!(existsSync(path) && readFileSync(path, "utf8").includes(line))) await Bun.sleep(10);
  return "waiting";
}

/** The agent is created, `client` attached, and its runtime told to stop (its exit held). */
async function stopping(harness: DaemonHarness, client: DaemonClient): Promise<string> {
  const agentId = await harness.createAgent(client);
  await client.ok({ type: "agent.attach", agent_id: agentId });
  const from = client.messages.length;
  expect(await client.ok({ type: "agent.terminate", agent_id: agentId })).toEqual({ deferred: false });
  await client.waitFor((m) => m.type === "agent_status_changed" && m.runtime_state === "stopping", from);
  return agentId;
}

describe("a command while the runtime is stopping", () => {
  test("agent.attach waits for the exit, restores the agent and answers with the new generation's sync", async () => {
    const { harness, release } = await heldExitHarness();
    const a = await harness.unixClient();
    const agentId = await stopping(harness, a);

    const b = await harness.unixClient();
    const attach = b.request({ type: "agent.attach", agent_id: agentId });
    // Today's refusal would answer first; the fix waits for the held exit.
    const first = await Promise.race([startWaits(harness.home, agentId), attach]);
    expect(first).toBe("waiting");
    writeFileSync(release, "");
    const answered: Msg = await attach;
    expect(answered.success).toBe(true);
    expect(answered.data.info).toMatchObject({ agent_id: agentId, runtime_state: "running" });
    const sync = await b.waitAgent(agentId, "sync");
    expect(sync.runtime_epoch).toBe(1);
  });

  test("a prompt waits for the exit too, restores the agent and reaches the new generation", async () => {
    const { harness, release } = await heldExitHarness();
    const a = await harness.unixClient();
    const agentId = await stopping(harness, a);
    const from = a.messages.length;

    const prompt = a.request({ type: "prompt", agent_id: agentId, message: "hello again" });
    const first = await Promise.race([startWaits(harness.home, agentId), prompt]);
    expect(first).toBe("waiting");
    writeFileSync(release, "");
    const answered: Msg = await prompt;
    expect(answered).toMatchObject({ success: true, agent_id: agentId });
    // The attachment is re-synced by the new generation.
    const sync = await a.waitAgent(agentId, "sync", from);
    expect(sync.runtime_epoch).toBe(1);
  });
});
