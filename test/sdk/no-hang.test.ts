/**
 * A script never waits forever: against real daemons, agent processes and the mock LLM — a
 * client with no permission handler does not count as a responder, so the daemon's headless
 * policy denies at once and says how to add one; a daemon that never comes back ends the turn
 * after `reconnect.maxAttempts`; a turn past its `timeoutMs` ends with `TIMEOUT`.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { connectDaemon } from "../../sdk/src/daemon-client.ts";
import { ShardError } from "../../sdk/src/errors.ts";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { DaemonProcess, useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

// Real daemons and agent processes on a machine shared with other work.
setDefaultTimeout(90_000);

const llm = useMockLlmServer({ clearRequestsBeforeEach: true, clearQueueBeforeEach: true });
const startDaemon = useDaemonHarnesses(llm);
const daemons: DaemonProcess[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
});

describe("no hang", () => {
  test("with no onPermission handler, a bash call is denied by the headless policy, saying how to add one", async () => {
    // A headless timeout far past the test's: only an immediate headless answer passes.
    const h = await startDaemon({ headlessTimeoutMs: 600_000 });
    const client = await connectDaemon({ socketPath: h.socketPath });
    const agent = await client.createAgent({ cwd: h.cwd, model: "mock/chat" });
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command: "echo should-not-run" } } }] },
      { steps: [{ text: "was denied" }] },
    );
    const result = await agent.run("run echo");
    expect(result.end_reason).toBe("completed");
    const toolResult = JSON.stringify(
      result.messages.flatMap((m) => m.content).find((b) => b.type === "tool_result"),
    );
    expect(toolResult).toContain("no one answered");
    expect(toolResult).toContain("agent.onPermission");
    expect(toolResult).not.toContain("should-not-run\\n");
    expect(result.text).toBe("was denied");
    client.close();
  });

  test("a handler registered after attaching answers: the client becomes a responder for it", async () => {
    const h = await startDaemon({ headlessTimeoutMs: 600_000 });
    const client = await connectDaemon({ socketPath: h.socketPath });
    const agent = await client.createAgent({ cwd: h.cwd, model: "mock/chat" });
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command: "echo first" } } }] },
      { steps: [{ text: "denied" }] },
    );
    await agent.run("no handler yet");
    const asked: string[] = [];
    agent.onPermission((request) => {
      asked.push(request.tool_name);
      return "allow";
    });
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command: "echo approved-later" } } }] },
      { steps: [{ text: "ran it" }] },
    );
    const result = await agent.run("now with a handler");
    expect(asked).toEqual(["bash"]);
    expect(JSON.stringify(result.messages)).toContain("approved-later");
    client.close();
  });

  test("reconnect.maxAttempts: a daemon that never comes back ends the turn with an error", async () => {
    const home = mockHome(llm().url);
    const daemon = new DaemonProcess(home);
    daemons.push(daemon);
    await daemon.url();
    const client = await connectDaemon({
      home,
      reconnect: { initialDelayMs: 10, maxDelayMs: 20, maxAttempts: 2 },
    });
    const agent = await client.createAgent({ cwd: tempDir("cwd"), model: "mock/chat" });
    llm().enqueue({ steps: [{ text: "started" }, { hold: "gone-for-good" }, { text: "never" }] });
    const turn = await agent.prompt("outlive the daemon");
    await llm().waitForHold("gone-for-good");
    daemon.kill();
    const result = await turn.done;
    expect(result.end_reason).toBe("interrupted");
    expect(result.error?.code).toBe("NOT_ATTACHED");
    expect(result.error?.message).toContain("gave up reconnecting after 2 attempts");
    await agent.ended;
    const next = await agent.run("anyone there?").catch((e: unknown) => e);
    expect(next).toBeInstanceOf(ShardError);
  });

  test("a turn past its timeoutMs is aborted and run() rejects with TIMEOUT", async () => {
    const h = await startDaemon();
    const client = await connectDaemon({ socketPath: h.socketPath });
    const agent = await client.createAgent({ cwd: h.cwd, model: "mock/chat" });
    // Each prompt has its own script: on a loaded machine the timeout can fire before the first
    // turn reaches the model at all, and then its script must not become the next turn's.
    // The second turn's request carries the first prompt too, so its entry comes first.
    llm().enqueue(
      { when: "NEXT-AFTER-TIMEOUT", steps: [{ text: "next one" }] },
      { when: "take forever", steps: [{ text: "slow" }, { hold: "too-slow" }, { text: "never" }] },
    );
    const failed = await agent.run("take forever", { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ShardError);
    expect((failed as ShardError).code).toBe("TIMEOUT");
    // The runtime's turn was aborted too: the next turn runs now, not queued behind the held
    // stream (which is never released; the bound is far below the mock's 20 s hold cut).
    expect((await agent.run("NEXT-AFTER-TIMEOUT", { timeoutMs: 10_000 })).text).toBe("next one");
    client.close();
  });
});
