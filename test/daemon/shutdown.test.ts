/**
 * Stopping never waits on a person (issue 19): with a permission request open, SIGTERM stops
 * the daemon promptly, no runtime is left, and the request is asked again once the agent is
 * attached after a restart. A stopping daemon refuses new work; `shard daemon stop` stops it;
 * only a local (unix socket) client may send daemon.shutdown.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { mockHome, SHARD_MAIN, tempDir } from "../agent/support/agent-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { askBash } from "./support/ask-bash.ts";
import type { Msg } from "./support/daemon-client.ts";
import {
  DaemonProcess,
  runtimeEnv,
  useDaemonHarnesses,
  useDaemonProcesses,
} from "./support/daemon-harness.ts";

setDefaultTimeout(90_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);
const processes = useDaemonProcesses();

async function runtimesIn(cwd: string): Promise<number[]> {
  const out = await new Response(Bun.spawn(["pgrep", "-f", `agent --cwd ${cwd}`]).stdout).text();
  return out.trim().split("\n").filter(Boolean).map(Number);
}

async function started(home: string): Promise<DaemonProcess> {
  const daemon = new DaemonProcess(home);
  processes.push(daemon);
  await daemon.url();
  return daemon;
}

describe("stopping the daemon", () => {
  test("SIGTERM with a permission request open: exits, leaves no runtime, and the request is asked again after a restart", async () => {
    const home = mockHome(llm().url);
    const first = await started(home);
    const a = await first.client();
    const cwd = tempDir("cwd");
    const agentId = (await a.ok({ type: "agent.create", cwd, model: "mock/chat" })).agent_id;
    await a.ok({ type: "agent.attach", agent_id: agentId });
    const asked = await askBash(llm(), a, agentId, "echo resumed-after-restart");
    expect(await runtimesIn(cwd)).toHaveLength(1);

    first.proc.kill("SIGTERM");
    // The barrier is the exit itself: nobody answers the request.
    expect(await first.exited).toBe(0);
    expect(await runtimesIn(cwd)).toEqual([]);
    const log = readFileSync(join(home, "logs", "daemon.log"), "utf8");
    expect(log).toContain(`agent ${agentId} waits for an answer: killing its runtime`);
    expect(log).toContain("daemon stopped");

    const second = await started(home);
    const b = await second.client();
    const from = b.messages.length;
    await b.ok({ type: "agent.attach", agent_id: agentId });
    // Asked again by the resumed runtime: in the attach's sync, or as an event just after it.
    const sync = await b.waitAgent(agentId, "sync", from);
    const again: Msg = sync.pending_requests[0] ?? (await b.waitAgent(agentId, "permission_request", from));
    expect(again).toMatchObject({ tool_name: "bash", input: asked.input });
    await b.ok({
      type: "permission_response",
      agent_id: agentId,
      request_id: again.request_id,
      decision: "allow",
    });
    const result = await b.waitAgent(agentId, "tool_result", from);
    expect(JSON.stringify(result)).toContain("resumed-after-restart");
    await b.waitAgent(agentId, "turn_end", from);
    // The call ran once, after the restart: the first runtime never answered it.
    expect(JSON.stringify(sync.live_window)).not.toContain("interrupted");
    b.close();
    a.close();
  });

  test("a stopping daemon refuses new work with CONFLICT shutting_down, then exits", async () => {
    const home = mockHome(llm().url);
    const daemon = await started(home);
    const a = await daemon.client();
    const cwd = tempDir("cwd");
    const agentId = (await a.ok({ type: "agent.create", cwd, model: "mock/chat" })).agent_id;
    await a.ok({ type: "agent.attach", agent_id: agentId });
    llm().enqueue({ steps: [{ text: "a long" }, { hold: "stopping" }, { text: " answer" }] });
    const from = a.messages.length;
    await a.ok({ type: "prompt", agent_id: agentId, message: "take your time" });
    await a.waitAgent(agentId, "message_delta", from);
    await a.ok({ type: "daemon.shutdown" });

    const create = await a.request({ type: "agent.create", cwd, model: "mock/chat" });
    expect(create.error).toMatchObject({ code: "CONFLICT", data: { shutting_down: true } });
    expect(create.error.message).toContain("shutting down");
    const attach = await a.request({ type: "agent.attach", agent_id: agentId });
    expect(attach.error).toMatchObject({ code: "CONFLICT", data: { shutting_down: true } });
    const prompt = await a.request({
      type: "prompt",
      agent_id: agentId,
      message: "more",
      streaming_behavior: "steer",
    });
    expect(prompt).toMatchObject({ agent_id: agentId, error: { code: "CONFLICT" } });
    // Reads still answer.
    expect((await a.ok({ type: "agent.list" })).agents).toHaveLength(1);

    llm().release("stopping");
    expect(await daemon.exited).toBe(0);
    expect(await runtimesIn(cwd)).toEqual([]);
  });

  test("a turn that never ends does not hold the stop: its runtime is killed after the grace, and daemon.log says what the stop waits for", async () => {
    const home = mockHome(llm().url);
    const daemon = await started(home);
    const a = await daemon.client();
    const cwd = tempDir("cwd");
    const agentId = (await a.ok({ type: "agent.create", cwd, model: "mock/chat" })).agent_id;
    await a.ok({ type: "agent.attach", agent_id: agentId });
    // Held well past any wait of the test: only the daemon can end this turn.
    llm().enqueue({ steps: [{ text: "a long" }, { hold: "endless", timeout_ms: 300_000 }] });
    const from = a.messages.length;
    await a.ok({ type: "prompt", agent_id: agentId, message: "never finish" });
    await a.waitAgent(agentId, "message_delta", from);

    await a.ok({ type: "daemon.shutdown" });
    // The barrier is the exit itself: the hold is never released.
    expect(await daemon.exited).toBe(0);
    expect(await runtimesIn(cwd)).toEqual([]);
    const log = readFileSync(join(home, "logs", "daemon.log"), "utf8");
    expect(log).toContain(`daemon stopping: waiting for 1 runtime(s) to exit; turns finishing: ${agentId}`);
    expect(log).toContain(`daemon stopping: agent ${agentId} still running after 5 s: killing its runtime`);
    expect(log).toContain("daemon stopped");
    a.close();
  });

  test("`shard daemon stop` stops the running daemon and waits for its exit", async () => {
    const home = mockHome(llm().url);
    const daemon = await started(home);
    const cli = Bun.spawn([process.execPath, SHARD_MAIN, "daemon", "stop"], {
      env: runtimeEnv(home),
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await cli.exited).toBe(0);
    expect(await new Response(cli.stdout).text()).toBe("daemon stopped\n");
    expect(await daemon.exited).toBe(0);

    const again = Bun.spawn([process.execPath, SHARD_MAIN, "daemon", "stop"], {
      env: runtimeEnv(home),
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await again.exited).toBe(1);
    expect(await new Response(again.stderr).text()).toContain("no daemon is running");
  });

  test("a WebSocket client cannot stop the daemon: daemon.shutdown is PERMISSION_DENIED and the daemon carries on", async () => {
    const harness = await startHarness();
    const ws = await harness.wsClient();
    const refused = await ws.request({ type: "daemon.shutdown", force: true });
    expect(refused.error.code).toBe("PERMISSION_DENIED");
    const local = await harness.unixClient();
    expect(await local.ok({ type: "agent.list" })).toEqual({ agents: [] });
    const created = await ws.ok({ type: "agent.create", cwd: harness.cwd, model: "mock/chat" });
    expect(created.agent_id).toBeString();
  });
});
