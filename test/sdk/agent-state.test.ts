/**
 * The client-side state rules, fed event by event: a `sync` replaces the state, an event whose
 * `seq` was already applied is dropped (a resumed stream never repeats one), and a jump or a
 * restarted sequence is reported as a `gap` — while `state` stays exactly what the shared
 * reducer makes of the events the agent really emitted.
 */
import { describe, expect, test } from "bun:test";
import { Agent } from "../../sdk/src/agent.ts";
import type { AgentLink } from "../../sdk/src/agent-link.ts";
import type { AgentStreamEvent } from "../../sdk/src/stream-events.ts";
import { emptySnapshot, syncFromSnapshot } from "../../src/snapshot/agent-snapshot.ts";
import { applyEvents } from "../../src/snapshot/apply-event.ts";
import type { AgentEvent } from "../../src/types/catalog.ts";

const sent: object[] = [];
const link: AgentLink = {
  agentId: "agent-1",
  answers: true,
  unhandled: "leave",
  request: async (command) => {
    sent.push(command);
    return { type: "response", command: command.type, success: true };
  },
  send: (command) => {
    sent.push(command);
  },
  close: async () => undefined,
  resync: () => {
    sent.push({ type: "resync" });
  },
};

const delta = (seq: number, text: string): AgentEvent => ({
  type: "message_delta",
  agent_id: "agent-1",
  seq,
  message_id: "msg_1",
  block_index: 0,
  kind: "text",
  text_delta: text,
});

/** The stream of everything `feed` makes the agent publish. */
async function streamOf(agent: Agent, feed: () => void): Promise<AgentStreamEvent[]> {
  const it = agent.events();
  feed();
  agent.end({ code: "NOT_ATTACHED", message: "test over" });
  const seen: AgentStreamEvent[] = [];
  for await (const e of it) seen.push(e);
  return seen;
}

describe("agent state", () => {
  const start = { ...syncFromSnapshot(emptySnapshot()), agent_id: "agent-1", seq: 0 };
  const emitted: AgentEvent[] = [
    { type: "turn_start", agent_id: "agent-1", seq: 1, turn_id: "turn_1" },
    delta(2, "a"),
    delta(3, "b"),
    delta(4, "c"),
  ];

  test("a resumed stream that repeats events applies each once", async () => {
    const agent = new Agent(link);
    const seen = await streamOf(agent, () => {
      agent.receive(start);
      for (const e of emitted.slice(0, 3)) agent.receive(e);
      // Re-attach: the daemon's sync is current up to seq 3, then it sends 3 again and 4.
      const resync = {
        ...syncFromSnapshot(applyEvents(emptySnapshot(), emitted.slice(0, 3))),
        agent_id: "agent-1",
      };
      agent.receive(resync);
      agent.receive(emitted[2]!);
      agent.receive(emitted[3]!);
    });
    expect(agent.state).toEqual(applyEvents(emptySnapshot(), emitted));
    expect(agent.state.streaming_message?.blocks[0]?.text).toBe("abc");
    const deltaSeqs = seen.flatMap((e) => (e.type === "message_delta" ? [e.seq] : []));
    expect(deltaSeqs).toEqual([2, 3, 4]);
    expect(seen.some((e) => e.type === "gap")).toBe(false);
  });

  test("a sync ahead of the last seen event is a gap; the state is the sync's", async () => {
    const agent = new Agent(link);
    const seen = await streamOf(agent, () => {
      agent.receive(start);
      agent.receive(emitted[0]!);
      const ahead = { ...syncFromSnapshot(applyEvents(emptySnapshot(), emitted)), agent_id: "agent-1" };
      agent.receive(ahead);
    });
    expect(agent.state).toEqual(applyEvents(emptySnapshot(), emitted));
    expect(seen.find((e) => e.type === "gap")).toMatchObject({
      reason: "reconnect",
      last_seen_seq: 1,
      resumed_at_seq: 4,
    });
  });

  test("a daemon whose sequence started over is reported, and its new events are applied", async () => {
    const agent = new Agent(link);
    const seen = await streamOf(agent, () => {
      agent.receive(start);
      for (const e of emitted) agent.receive(e);
      agent.receive({ ...start, seq: 0 }); // a restarted daemon: seq 0 again
      agent.receive({ type: "status", agent_id: "agent-1", seq: 1, status: "streaming" });
    });
    expect(seen.find((e) => e.type === "gap")).toMatchObject({ reason: "sequence_reset", last_seen_seq: 4 });
    expect(agent.state.status).toBe("streaming");
    expect(agent.state.last_seq).toBe(1);
  });

  test("a jump in seq while connected is reported as a gap, and the state waits for a fresh sync", async () => {
    const agent = new Agent(link);
    const resyncsBefore = sent.filter((c) => "type" in c && c.type === "resync").length;
    const seen = await streamOf(agent, () => {
      agent.receive(start);
      agent.receive(emitted[0]!);
      agent.receive(emitted[3]!);
    });
    expect(seen.find((e) => e.type === "gap")).toMatchObject({
      reason: "seq_jump",
      last_seen_seq: 1,
      resumed_at_seq: 3,
    });
    expect(sent.filter((c) => "type" in c && c.type === "resync").length).toBe(resyncsBefore + 1);
    // Nothing is folded over the hole: the state is the last exact one until the sync.
    expect(agent.state).toEqual(applyEvents(emptySnapshot(), [start, emitted[0]!]));
    const fresh = { ...syncFromSnapshot(applyEvents(emptySnapshot(), emitted)), agent_id: "agent-1" };
    const after = await streamOf(agent, () => agent.receive(fresh));
    expect(agent.state).toEqual(applyEvents(emptySnapshot(), emitted));
    expect(after.filter((e) => e.type === "gap")).toEqual([]);
  });
});
