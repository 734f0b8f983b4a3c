/**
 * A `shard daemon` process is killed and started again on the same SHARD_HOME: the SDK client
 * reconnects by itself, re-attaches to its durable agent, reports that the daemon's event
 * sequence started over (a `gap`), replaces its state from the new daemon's `sync`, and goes on.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { connectDaemon, type DaemonStreamEvent } from "../../sdk/src/daemon-client.ts";
import type { AgentStreamEvent } from "../../sdk/src/stream-events.ts";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { DaemonProcess } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { readUntil } from "./support/read-until.ts";

// Two daemon processes and their runtimes on a machine shared with other work.
setDefaultTimeout(90_000);

const llm = useMockLlmServer();
const daemons: DaemonProcess[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
});

function daemonOn(home: string): DaemonProcess {
  const d = new DaemonProcess(home);
  daemons.push(d);
  return d;
}

describe("daemon restart", () => {
  test("the client re-attaches to the restarted daemon and reports the sequence reset", async () => {
    const home = mockHome(llm().url);
    const first = daemonOn(home);
    await first.url();
    const client = await connectDaemon({ home, reconnect: { initialDelayMs: 20, maxDelayMs: 200 } });
    const notices = client.events();
    const agent = await client.createAgent({ cwd: tempDir("cwd"), model: "mock/chat" });
    const events = agent.events();
    llm().enqueue({ steps: [{ text: "before the restart" }] });
    expect((await agent.run("one")).text).toBe("before the restart");
    const seqBefore = agent.state.last_seq;
    expect(seqBefore).toBeGreaterThan(0);

    first.kill();
    await first.exited;
    await readUntil<DaemonStreamEvent>(notices, (n) => n.type === "connection_lost");
    await daemonOn(home).url();
    await readUntil<DaemonStreamEvent>(notices, (n) => n.type === "connection_restored");

    const seen = await readUntil<AgentStreamEvent>(events, (e) => e.type === "gap");
    const gap = seen.at(-1);
    expect(gap).toMatchObject({ type: "gap", reason: "sequence_reset", last_seen_seq: seqBefore });
    expect(agent.state.live_window.messages.map((m) => m.role)).toEqual(["user", "assistant"]);

    llm().enqueue({ steps: [{ text: "after the restart" }] });
    expect((await agent.run("two")).text).toBe("after the restart");
    expect(agent.state.live_window.messages).toHaveLength(4);
    client.close();
  });
});
