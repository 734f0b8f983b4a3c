/**
 * Attach during a streaming turn (docs/protocol.md §5.4): `sync` from the daemon's snapshot first,
 * then every later event exactly once — no gap, no duplicate, checked by the daemon's `seq` — so
 * the late client's snapshot ends where the first client's does.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { snapshotFromSync } from "../../src/snapshot/agent-snapshot.ts";
import { applyEvents } from "../../src/snapshot/apply-event.ts";
import type { SyncEvent } from "../../src/types/agent-events.ts";
import type { AgentEvent } from "../../src/types/catalog.ts";
import { asAgentEvent } from "../../src/wire/validate.ts";
import type { MockStep } from "../support/mock-llm/types.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import type { Msg } from "./support/daemon-client.ts";
import { type DaemonHarness, useDaemonHarnesses } from "./support/daemon-harness.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
let harness: DaemonHarness | undefined;
const startHarness = useDaemonHarnesses(llm);

function asEvent(m: Msg): AgentEvent {
  const event = asAgentEvent(m);
  if (!event) throw new Error(`not an agent event: ${JSON.stringify(m).slice(0, 200)}`);
  return event;
}

function asSync(m: Msg): SyncEvent {
  const event = asEvent(m);
  if (event.type !== "sync") throw new Error(`not a sync: ${event.type}`);
  return event;
}

/** A turn that streams for a while: 80 deltas, 15 ms apart. */
function slowStream(): MockStep[] {
  const steps: MockStep[] = [];
  for (let i = 0; i < 80; i++) steps.push({ text: `w${i} ` }, { delay_ms: 15 });
  return steps;
}

for (const transport of ["unix", "websocket"] as const) {
  describe(`attach mid-stream over ${transport}`, () => {
    test("sync, then each later event exactly once, ending in the same snapshot", async () => {
      harness = await startHarness();
      const a = await harness.client(transport);
      const agentId = await harness.createAgent(a);
      await a.ok({ type: "agent.attach", agent_id: agentId });
      const syncA = await a.waitAgent(agentId, "sync");
      llm().enqueue({ steps: slowStream() });
      const from = a.messages.length;
      await a.ok({ type: "prompt", agent_id: agentId, message: "stream for a while" });
      await a.waitAgent(agentId, "message_delta", from);

      const b = await harness.client(transport);
      await b.ok({ type: "agent.attach", agent_id: agentId });
      const syncB = await b.waitAgent(agentId, "sync");
      expect(syncB.status).toBe("streaming");
      expect(syncB.streaming_message?.blocks[0]?.text).toStartWith("w0 ");

      await a.waitAgent(agentId, "status", from, (m) => m.status === "idle");
      await b.waitAgent(agentId, "status", 0, (m) => m.status === "idle");
      const eventsA = a.agentEvents(agentId).filter((m) => m.type !== "sync");
      const laterB = b.agentEvents(agentId).filter((m) => m.type !== "sync");
      expect(laterB.map((m) => m.seq)).toEqual(laterB.map((_, i) => syncB.seq + 1 + i));
      expect(laterB).toEqual(eventsA.filter((m) => m.seq > syncB.seq));
      expect(laterB.some((m) => m.type === "message_delta")).toBe(true);

      const endA = applyEvents(snapshotFromSync(asSync(syncA)), eventsA.map(asEvent));
      const endB = applyEvents(snapshotFromSync(asSync(syncB)), laterB.map(asEvent));
      expect(endB).toEqual(endA);
      const last = endB.live_window.messages.at(-1);
      expect(JSON.stringify(last?.content)).toContain("w79");
      expect(a.schemaViolations).toEqual([]);
      expect(b.schemaViolations).toEqual([]);
    });
  });
}
