/**
 * Every turn result says how the turn ended (`end_reason`, docs/protocol-additions.md §1.3):
 * against real daemons, real `shard agent` children and the mock LLM — a completed turn, one
 * aborted by another client (who is named), one cut off by a `kill -9` of the daemon (never a
 * success), and one the provider refused.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { connectDaemon } from "../../sdk/src/daemon-client.ts";
import { ShardError } from "../../sdk/src/errors.ts";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { DaemonProcess, useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

// Real daemons and agent processes on a machine shared with other work.
setDefaultTimeout(90_000);

const llm = useMockLlmServer({ clearRequestsBeforeEach: true });
const startDaemon = useDaemonHarnesses(llm);
const daemons: DaemonProcess[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
});

describe("end_reason", () => {
  test("a turn that runs to its end is completed, in run() and in turn_end", async () => {
    const h = await startDaemon();
    const client = await connectDaemon({ socketPath: h.socketPath });
    const agent = await client.createAgent({ cwd: h.cwd, model: "mock/chat" });
    llm().enqueue({ steps: [{ text: "all done" }] });
    const turn = await agent.prompt("finish");
    const events = [];
    for await (const e of turn) events.push(e);
    expect(events.at(-1)).toMatchObject({ type: "turn_end", end_reason: "completed" });
    const result = await turn.done;
    expect(result).toMatchObject({ end_reason: "completed", aborted: false, text: "all done" });
    llm().enqueue({ steps: [{ text: "again" }] });
    expect(await agent.run("again")).toMatchObject({ end_reason: "completed", text: "again" });
    client.close();
  });

  test("a turn another client aborts ends aborted, naming that client", async () => {
    const h = await startDaemon();
    const client = await connectDaemon({ socketPath: h.socketPath });
    const agent = await client.createAgent({ cwd: h.cwd, model: "mock/chat" });
    llm().enqueue({ steps: [{ text: "partial" }, { hold: "abort-me" }, { text: "never" }] });
    const turn = await agent.prompt("long");
    await llm().waitForHold("abort-me");
    const other = await h.unixClient();
    await other.ok({ type: "agent.attach", agent_id: agent.id });
    await other.ok({ type: "abort", agent_id: agent.id });
    const result = await turn.done;
    expect(result.end_reason).toBe("aborted");
    expect(result.aborted).toBe(true);
    expect(result.aborted_by).toMatch(/^conn_/);
    expect(result.error).toBeUndefined();
    client.close();
  });

  test("a turn cut off by a kill -9 of the daemon ends interrupted, and run() rejects", async () => {
    const home = mockHome(llm().url);
    const first = new DaemonProcess(home);
    daemons.push(first);
    await first.url();
    const client = await connectDaemon({ home, reconnect: { initialDelayMs: 20, maxDelayMs: 200 } });
    const agent = await client.createAgent({ cwd: tempDir("cwd"), model: "mock/chat" });
    llm().enqueue({ steps: [{ text: "the first half", chunks: 3 }, { hold: "killed" }, { text: "never" }] });
    const turn = await agent.prompt("cut me off");
    await llm().waitForHold("killed");
    first.kill();
    await first.exited;
    const second = new DaemonProcess(home);
    daemons.push(second);
    await second.url();
    const result = await turn.done;
    expect(result.end_reason).toBe("interrupted");
    expect(result.aborted).toBe(false);
    // An error rides along, so run() rejects rather than resolving a partial reply.
    expect(result.error?.message).toBeString();
    client.close();
  });

  test("a turn the provider refuses (401) ends error; run() rejects with the provider's error", async () => {
    const h = await startDaemon();
    const client = await connectDaemon({ socketPath: h.socketPath });
    const agent = await client.createAgent({ cwd: h.cwd, model: "mock/chat" });
    llm().enqueue({ status: 401, error_type: "invalid api key" });
    const turn = await agent.prompt("refused");
    const result = await turn.done;
    expect(result.end_reason).toBe("error");
    expect(result.error?.code).toBe("PROVIDER_ERROR");
    llm().enqueue({ status: 401, error_type: "invalid api key" });
    await expect(agent.run("refused again")).rejects.toBeInstanceOf(ShardError);
    client.close();
  });
});
