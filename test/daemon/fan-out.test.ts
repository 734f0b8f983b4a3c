/** Two clients watching one agent see the same stream; attach, detach and responses are tagged. */
import { describe, expect, test } from "bun:test";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import type { DaemonClient, Msg } from "./support/daemon-client.ts";
import { type DaemonHarness, useDaemonHarnesses } from "./support/daemon-harness.ts";

const llm = useMockLlmServer();
let harness: DaemonHarness | undefined;
const startHarness = useDaemonHarnesses(llm);

const strip = (m: Msg) => JSON.stringify(m);

async function turn(client: DaemonClient, agentId: string, message: string): Promise<void> {
  const from = client.messages.length;
  const res = await client.request({ type: "prompt", agent_id: agentId, message });
  expect(res.success).toBe(true);
  expect(res.agent_id).toBe(agentId);
  await client.waitAgent(agentId, "turn_end", from);
  await client.waitAgent(agentId, "status", from, (m) => m.status === "idle");
}

for (const transport of ["unix", "websocket"] as const) {
  describe(`fan-out over ${transport}`, () => {
    test("two clients attached to one agent receive the same events, tagged with agent_id", async () => {
      harness = await startHarness();
      const a = await harness.client(transport);
      const b = await harness.client(transport);
      expect(a.messages[0]).toMatchObject({ type: "hello", protocol_version: "0.1.0" });
      expect(a.messages[0]?.capabilities).toContain(transport === "unix" ? "unix-socket" : "websocket");
      const agentId = await harness.createAgent(a);
      const attachA = await a.ok({ type: "agent.attach", agent_id: agentId });
      expect(attachA.info).toMatchObject({ agent_id: agentId, runtime_state: "running" });
      await b.ok({ type: "agent.attach", agent_id: agentId, role: "observer" });
      const syncA = await a.waitAgent(agentId, "sync");
      expect(syncA.capabilities).toContain("mode-switch");
      expect(syncA.runtime_epoch).toBe(0);
      const fromB = b.messages.length;
      llm().enqueue({ steps: [{ text: "Hello from the agent", chunks: 5 }] });
      await turn(a, agentId, "say hello");
      await b.waitAgent(agentId, "status", fromB, (m) => m.status === "idle");
      const streamA = a.agentEvents(agentId).filter((m) => m.seq > syncA.seq && m.type !== "sync");
      const streamB = b.agentEvents(agentId, fromB).filter((m) => m.type !== "sync");
      expect(streamA.length).toBeGreaterThan(5);
      expect(streamB.map(strip)).toEqual(streamA.map(strip));
      expect(streamA.map((m) => m.seq)).toEqual(streamA.map((_, i) => streamA[0]!.seq + i));
      // Orchestrator responses carry no routing agent_id.
      const list = await a.request({ type: "agent.list" });
      expect(list.agent_id).toBeUndefined();
      expect(a.schemaViolations).toEqual([]);
      expect(b.schemaViolations).toEqual([]);
    });

    test("detach stops the stream and leaves the agent running", async () => {
      harness = await startHarness();
      const a = await harness.client(transport);
      const b = await harness.client(transport);
      const agentId = await harness.createAgent(a);
      await a.ok({ type: "agent.attach", agent_id: agentId });
      await b.ok({ type: "agent.attach", agent_id: agentId });
      await b.ok({ type: "agent.detach", agent_id: agentId });
      const fromB = b.messages.length;
      await turn(a, agentId, "still there?");
      // b's own later response is the barrier: nothing of the agent's turn reached it before.
      const status = await b.ok({ type: "agent.status", agent_id: agentId });
      expect(status.agents[0]).toMatchObject({ agent_id: agentId, runtime_state: "running", status: "idle" });
      expect(b.agentEvents(agentId, fromB)).toEqual([]);
      const prompt = await b.request({ type: "prompt", agent_id: agentId, message: "hi" });
      expect(prompt.error.code).toBe("NOT_ATTACHED");
      expect(prompt.agent_id).toBe(agentId);
    });
  });
}

describe("controls through the daemon", () => {
  test("set_mode and set_model reach the runtime; mode_changed and model_changed reach every attachment", async () => {
    harness = await startHarness();
    const a = await harness.unixClient();
    const b = await harness.wsClient();
    const agentId = await harness.createAgent(a);
    await a.ok({ type: "agent.attach", agent_id: agentId });
    await b.ok({ type: "agent.attach", agent_id: agentId, role: "observer" });
    const modes = await a.ok({ type: "list_modes", agent_id: agentId });
    expect(modes.active).toBe("build");
    expect(await a.ok({ type: "set_mode", agent_id: agentId, mode: "plan" })).toEqual({
      previous_mode: "build",
      mode: "plan",
    });
    expect(await b.waitAgent(agentId, "mode_changed")).toMatchObject({
      previous_mode: "build",
      mode: "plan",
    });
    const switched = await a.ok({ type: "set_model", agent_id: agentId, model: "mockresp/resp" });
    expect(switched.active.id).toBe("mockresp/resp");
    expect((await b.waitAgent(agentId, "model_changed")).active.id).toBe("mockresp/resp");
    const status = await b.ok({ type: "agent.status", agent_id: agentId });
    expect(status.agents[0]).toMatchObject({ mode: "plan", model: "mockresp/resp", provider: "mockresp" });
  });
});
