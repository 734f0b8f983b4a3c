/**
 * Daemon transport resilience: the network between the SDK and a real daemon is cut (a relay
 * socket drops every connection and refuses new ones) and restored. The client reconnects
 * with backoff, re-attaches, resumes from the fresh `sync` without duplicates, reports a `gap`
 * when events went by meanwhile, and still resolves the turn that was running.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Agent } from "../../sdk/src/agent.ts";
import { connectDaemon, type DaemonStreamEvent } from "../../sdk/src/daemon-client.ts";
import type { AgentStreamEvent } from "../../sdk/src/stream-events.ts";
import { snapshotFromSync } from "../../src/snapshot/agent-snapshot.ts";
import type { SyncEvent } from "../../src/types/agent-events.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { readUntil } from "./support/read-until.ts";
import { SocketProxy } from "./support/socket-proxy.ts";

// Real agent processes and daemons on a machine shared with other work.
setDefaultTimeout(60_000);

const llm = useMockLlmServer({ clearRequestsBeforeEach: true });
const startDaemon = useDaemonHarnesses(llm);
const proxies: SocketProxy[] = [];
afterEach(() => {
  for (const p of proxies.splice(0)) p.stop();
});

async function setUp() {
  const h = await startDaemon();
  const proxy = new SocketProxy(h.socketPath);
  proxies.push(proxy);
  const client = await connectDaemon({
    socketPath: proxy.path,
    reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
  });
  const agent = await client.createAgent({ cwd: h.cwd, model: "mock/chat" });
  const watcher = await h.unixClient(); // straight to the daemon: sees what the SDK misses
  await watcher.ok({ type: "agent.attach", agent_id: agent.id, role: "observer" });
  return { h, proxy, client, agent, watcher, notices: client.events(), events: agent.events() };
}

function seqs(events: AgentStreamEvent[]): number[] {
  return events.flatMap((e) => (e.type !== "gap" && e.type !== "sync" && e.seq !== undefined ? [e.seq] : []));
}

async function expectStateIsFreshSync(agent: Agent, h: Awaited<ReturnType<typeof setUp>>["h"]) {
  await agent.listModes();
  const other = await h.unixClient();
  const from = other.messages.length;
  await other.ok({ type: "agent.attach", agent_id: agent.id, role: "observer" });
  const sync = (await other.waitAgent(agent.id!, "sync", from)) as unknown as SyncEvent;
  expect(agent.state).toEqual(snapshotFromSync(sync));
}

describe("reconnect", () => {
  test("events that went by while cut off: a gap is reported, the turn still resolves from the sync", async () => {
    const s = await setUp();
    llm().enqueue({ steps: [{ text: "before " }, { hold: "cut" }, { text: "after", chunks: 3 }] });
    const turn = await s.agent.prompt("stream across a cut");
    const seen = await readUntil(s.events, (e) => e.type === "message_delta");
    await llm().waitForHold("cut");

    s.proxy.cut();
    await readUntil<DaemonStreamEvent>(s.notices, (n) => n.type === "connection_lost");
    const from = s.watcher.messages.length;
    llm().release("cut");
    await s.watcher.waitAgent(s.agent.id!, "turn_end", from);
    s.proxy.restore();

    const result = await turn.done;
    expect(result.missed_events).toBe(true);
    expect(result.text).toBe("before after");
    await readUntil<DaemonStreamEvent>(s.notices, (n) => n.type === "connection_restored");
    await readUntil(s.events, (e) => e.type === "gap", seen);
    const gap = seen.find((e) => e.type === "gap");
    expect(gap?.type === "gap" && gap.reason).toBe("reconnect");
    expect(gap?.type === "gap" && gap.resumed_at_seq > gap.last_seen_seq).toBe(true);

    // The stream goes on after the gap, without repeats.
    llm().enqueue({ steps: [{ text: "next turn" }] });
    const next = await s.agent.run("and again");
    expect(next.text).toBe("next turn");
    await readUntil(s.events, (e) => e.type === "turn_end" && e.turn_id === next.turn_id, seen);
    const all = seqs(seen);
    expect(all).toEqual([...all].sort((a, b) => a - b));
    expect(new Set(all).size).toBe(all.length);
    await expectStateIsFreshSync(s.agent, s.h);
    s.client.close();
  });

  test("a cut with nothing missed resumes the running turn seamlessly: no gap, no duplicate", async () => {
    const s = await setUp();
    llm().enqueue({ steps: [{ text: "one " }, { hold: "wait" }, { text: "two" }] });
    const turn = await s.agent.prompt("keep going");
    const seen = await readUntil(s.events, (e) => e.type === "message_delta");
    await llm().waitForHold("wait");
    s.proxy.cut();
    await readUntil<DaemonStreamEvent>(s.notices, (n) => n.type === "connection_lost");
    s.proxy.restore();
    await readUntil<DaemonStreamEvent>(s.notices, (n) => n.type === "connection_restored");
    llm().release("wait");
    const result = await turn.done;
    expect(result.missed_events).toBe(false);
    expect(result.text).toBe("one two");
    await readUntil(s.events, (e) => e.type === "turn_end", seen);
    expect(seen.some((e) => e.type === "gap")).toBe(false);
    const all = seqs(seen);
    expect(new Set(all).size).toBe(all.length);
    await expectStateIsFreshSync(s.agent, s.h);
    s.client.close();
  });

  test("a request while disconnected fails at once with NOT_ATTACHED, not at its timeout", async () => {
    const s = await setUp();
    s.proxy.cut();
    await readUntil<DaemonStreamEvent>(s.notices, (n) => n.type === "connection_lost");
    const failure = await s.client.listAgents().catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "NOT_ATTACHED" });
    s.proxy.restore();
    await readUntil<DaemonStreamEvent>(s.notices, (n) => n.type === "connection_restored");
    expect((await s.client.listAgents()).map((a) => a.agent_id)).toContain(s.agent.id!);
    s.client.close();
  });
});
