/**
 * What the protocol promises a client holds across the ssh hop (docs/placements.md, tests): a
 * client that drops mid-turn and re-attaches gets `sync` at or past the last `seq` it saw, then
 * every later event exactly once, in `seq` order, ending where a client that never left ends;
 * and a daemon restarted while an ssh agent exists lists it with its placement and resumes its
 * session on the next prompt.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { snapshotFromSync } from "../../src/snapshot/agent-snapshot.ts";
import { applyEvents } from "../../src/snapshot/apply-event.ts";
import type { SyncEvent } from "../../src/types/agent-events.ts";
import type { AgentEvent } from "../../src/types/catalog.ts";
import { asAgentEvent } from "../../src/wire/validate.ts";
import type { DaemonClient, Msg } from "../daemon/support/daemon-client.ts";
import { type DaemonHarness, useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { type RemoteShard, remoteShard } from "./support/remote-shard.ts";
import { createPlacedAgent, placeSshBox, startingOk, until, useSshd } from "./support/ssh-test.ts";
import { hasSshd } from "./support/sshd.ts";

setDefaultTimeout(120_000);

if (!hasSshd)
  console.log(
    "test/placements/ssh-resync: SKIPPED: no /usr/sbin/sshd here (apt-get install openssh-server; CI installs it)",
  );

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startHarness = useDaemonHarnesses(llm);
const server = useSshd();

async function sshAgent(): Promise<{
  harness: DaemonHarness;
  client: DaemonClient;
  remote: RemoteShard;
  agentId: string;
}> {
  const harness = await startHarness();
  const remote = remoteShard(llm().url);
  placeSshBox(harness.home, server(), remote.shard);
  const client = await harness.unixClient();
  const agentId = await createPlacedAgent(client, remote.cwd);
  await client.waitAgent(agentId, "sync");
  return { harness, client, remote, agentId };
}

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

async function infoOf(client: DaemonClient, agentId: string): Promise<Msg> {
  const list = await client.ok({ type: "agent.list" });
  const agents: Msg[] = Array.isArray(list.agents) ? list.agents : [];
  const info = agents.find((a) => a.agent_id === agentId);
  if (!info) throw new Error(`agent ${agentId} is not listed`);
  return info;
}

describe.skipIf(!hasSshd)("ssh placement: resync and restart", () => {
  test("a client dropped mid-turn re-attaches: sync, then every later event exactly once, in seq order", async () => {
    const { harness, client: watcher, agentId } = await sshAgent();
    const leaver = await harness.unixClient();
    await leaver.ok({ type: "agent.attach", agent_id: agentId });
    await leaver.waitAgent(agentId, "sync");
    llm().enqueue({
      steps: [
        { text: "before " },
        { text: "the drop " },
        { hold: "mid" },
        { text: "after " },
        { text: "the drop" },
      ],
    });
    const fromWatcher = watcher.messages.length;
    await leaver.ok({ type: "prompt", agent_id: agentId, message: "stream across the drop" });
    await llm().waitForHold("mid", 60_000);
    // Both clients have seen the text streamed before the hold.
    await leaver.waitAgent(agentId, "message_delta", 0, (m) => String(m.text_delta).includes("the drop"));
    const seen = leaver.agentEvents(agentId).filter((m) => m.type !== "sync");
    const lastSeen = Math.max(...seen.map((m) => Number(m.seq)));
    leaver.close();
    await leaver.whenClosed();

    // While it is away the turn goes on and ends: events it must get through the re-attach.
    llm().release("mid");
    await watcher.waitAgent(agentId, "turn_end", fromWatcher);
    await watcher.waitAgent(agentId, "status", fromWatcher, (m) => m.status === "idle");
    const back = await harness.unixClient();
    await back.ok({ type: "agent.attach", agent_id: agentId });
    const syncBack = await back.waitAgent(agentId, "sync");
    expect(syncBack.seq).toBeGreaterThanOrEqual(lastSeen);
    expect(syncBack.status).toBe("idle");
    expect(JSON.stringify(syncBack.live_window)).toContain("before the drop after the drop");

    // A second, mid-turn reconnect: the turn still running when it re-attaches.
    llm().enqueue({ steps: [{ text: "second " }, { hold: "again" }, { text: "turn done" }] });
    const fromSecond = watcher.messages.length;
    await back.ok({ type: "prompt", agent_id: agentId, message: "and again" });
    await llm().waitForHold("again", 60_000);
    await back.waitAgent(agentId, "message_delta", 0, (m) => String(m.text_delta).includes("second"));
    const lastBack = Math.max(...back.agentEvents(agentId).map((m) => Number(m.seq)));
    back.close();
    await back.whenClosed();
    const again = await harness.unixClient();
    await again.ok({ type: "agent.attach", agent_id: agentId });
    const syncAgain = await again.waitAgent(agentId, "sync");
    expect(syncAgain.seq).toBeGreaterThanOrEqual(lastBack);
    expect(syncAgain.status).toBe("streaming");
    llm().release("again");
    await watcher.waitAgent(agentId, "turn_end", fromSecond);
    await again.waitAgent(agentId, "turn_end");
    await again.waitAgent(agentId, "status", 0, (m) => m.status === "idle");
    await watcher.waitAgent(agentId, "status", fromSecond, (m) => m.status === "idle");

    // Exactly once, in order: the re-attached client's events are the watcher's after its sync,
    // numbered one by one from the sync's seq with none missing and none repeated.
    const watched = watcher.agentEvents(agentId).filter((m) => m.type !== "sync");
    const later = again.agentEvents(agentId).filter((m) => m.type !== "sync");
    expect(later.map((m) => m.seq)).toEqual(later.map((_, i) => Number(syncAgain.seq) + 1 + i));
    expect(later).toEqual(watched.filter((m) => Number(m.seq) > Number(syncAgain.seq)));
    expect(later.map((m) => m.type)).toContain("turn_end");
    expect(new Set(watched.map((m) => m.seq)).size).toBe(watched.length);

    // And it ends where the watcher ends.
    const syncWatcher = watcher.agentEvents(agentId).find((m) => m.type === "sync");
    if (!syncWatcher) throw new Error("the watcher got no sync");
    const endWatcher = applyEvents(
      snapshotFromSync(asSync(syncWatcher)),
      watched.filter((m) => Number(m.seq) > Number(syncWatcher.seq)).map(asEvent),
    );
    const endAgain = applyEvents(snapshotFromSync(asSync(syncAgain)), later.map(asEvent));
    expect(endAgain).toEqual(endWatcher);
    const text = JSON.stringify(endAgain.live_window.messages);
    expect(text).toContain("before the drop after the drop");
    expect(text).toContain("second turn done");
    expect(again.schemaViolations).toEqual([]);
  });

  test("a daemon restarted while an ssh agent exists lists it with its placement; the next prompt resumes the session", async () => {
    const { harness, client, agentId } = await sshAgent();
    llm().enqueue({ steps: [{ text: "noted" }] });
    const from = client.messages.length;
    await client.ok({ type: "prompt", agent_id: agentId, message: "before the restart, remember me" });
    await client.waitAgent(agentId, "turn_end", from);
    await harness.stop();
    // The daemon's stop ends the runtime's ssh link with it: nothing of it is left on sshd.
    await until(() => server().connections().length === 0, 30_000);

    const restarted = await startHarness({ home: harness.home });
    const after = await restarted.unixClient();
    const info = await infoOf(after, agentId);
    expect(info.placement).toBe("box");
    expect(info.runtime_state).toBe("stopped");
    llm().enqueue({ steps: [{ text: "welcome back" }] });
    const again = after.messages.length;
    // The attach starts a new generation over ssh, which resumes the session there.
    await startingOk(after, { type: "agent.attach", agent_id: agentId });
    await after.ok({ type: "prompt", agent_id: agentId, message: "after the restart" });
    await after.waitAgent(agentId, "turn_end", again);
    const said = after
      .agentEvents(agentId, again)
      .filter((m) => m.type === "message_delta")
      .map((m) => String(m.text_delta ?? ""))
      .join("");
    expect(said).toContain("welcome back");
    const request = JSON.stringify(llm().requests.at(-1)?.body);
    expect(request).toContain("before the restart, remember me");
    expect(request).toContain("after the restart");
    expect((await infoOf(after, agentId)).runtime_state).toBe("running");
  });
});
