/**
 * Durable agents and runtime generations (docs/protocol.md §5.4, docs/architecture.md §4, §7.1):
 * crashes, restoring on demand, start failures that keep the identity, idle reaping, and a daemon
 * restart.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { askBash } from "./support/ask-bash.ts";
import type { DaemonClient, Msg } from "./support/daemon-client.ts";
import {
  type DaemonHarness,
  DaemonProcess,
  useDaemonHarnesses,
  useDaemonProcesses,
} from "./support/daemon-harness.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
let harness: DaemonHarness | undefined;
const startHarness = useDaemonHarnesses(llm);
const processes = useDaemonProcesses();

async function turn(client: DaemonClient, agentId: string, message: string): Promise<Msg[]> {
  const from = client.messages.length;
  const res = await client.request({ type: "prompt", agent_id: agentId, message });
  if (!res.success) throw new Error(JSON.stringify(res.error));
  await client.waitAgent(agentId, "turn_end", from);
  await client.waitAgent(agentId, "status", from, (m) => m.status === "idle");
  return client.messages.slice(from);
}

/** The pid of the runtime working in `cwd` (the harness cwd is unique to one test). */
async function runtimePid(cwd: string): Promise<number> {
  const out = await new Response(Bun.spawn(["pgrep", "-f", `agent --cwd ${cwd}`]).stdout).text();
  const pids = out.trim().split("\n").filter(Boolean).map(Number);
  expect(pids).toHaveLength(1);
  return pids[0]!;
}

describe("runtime generations", () => {
  test("kill -9 of a runtime: agent_exited with its exit code, then the next prompt restores it", async () => {
    harness = await startHarness();
    const a = await harness.unixClient();
    const other = await harness.unixClient();
    const agentId = await harness.createAgent(a);
    await a.ok({ type: "agent.attach", agent_id: agentId });
    await turn(a, agentId, "remember the word kiwi");
    const seqBefore = Math.max(...a.agentEvents(agentId).map((m) => m.seq));

    process.kill(await runtimePid(harness.cwd), "SIGKILL");
    // Every connection hears it, attached or not; the event names the agent as payload only.
    const exited = await other.waitType("agent_exited");
    expect(exited).toMatchObject({ agent_id: agentId, runtime_state: "failed", exit_code: 137 });
    expect(exited.reason).toContain("SIGKILL");
    const listed = await other.ok({ type: "agent.list" });
    expect(listed.agents).toEqual([expect.objectContaining({ agent_id: agentId, runtime_state: "failed" })]);

    // New demand starts a new generation: a fresh sync (epoch 1) reaches the attachment first.
    const from = a.messages.length;
    const events = await turn(a, agentId, "what was the word?");
    const sync = events.find((m) => m.type === "sync");
    expect(sync?.runtime_epoch).toBe(1);
    expect(JSON.stringify(sync?.live_window)).toContain("kiwi");
    // The daemon's seq carries on across generations (the new runtime's own seq restarted at 0).
    expect(sync?.seq).toBe(seqBefore);
    const seqs = a
      .agentEvents(agentId, from)
      .filter((m) => m.type !== "sync")
      .map((m) => m.seq);
    expect(seqs).toEqual(seqs.map((_, i) => seqBefore + 1 + i));
  });

  test("a runtime that cannot start keeps its identity: RUNTIME_START_FAILED, never NOT_FOUND", async () => {
    // `sh -c "exit 3"` takes the agent arguments as $0…: it exits at once, saying nothing.
    harness = await startHarness({ shardCommand: ["sh", "-c", "exit 3"] });
    const a = await harness.unixClient();
    const res = await a.request({ type: "agent.create", cwd: harness.cwd, model: "mock/chat" });
    expect(res.error.code).toBe("RUNTIME_START_FAILED");
    expect(res.error.message).toContain("exited before it was ready");
    const agentId = res.error.data.agent_id;
    // The manifest was written before the runtime started, and stays: a retry may work.
    const manifest = JSON.parse(readFileSync(join(harness.home, "agents", agentId, "manifest.json"), "utf8"));
    expect(manifest).toMatchObject({ agent_id: agentId, cwd: harness.cwd, model: "mock/chat" });
    const attach = await a.request({ type: "agent.attach", agent_id: agentId });
    expect(attach.error.code).toBe("RUNTIME_START_FAILED");
    const listed = await a.ok({ type: "agent.list" });
    expect(listed.agents.map((x: Msg) => x.agent_id)).toEqual([agentId]);
    const missing = await a.request({ type: "agent.attach", agent_id: "agent_missing" });
    expect(missing.error.code).toBe("NOT_FOUND");
    const badCwd = await a.request({
      type: "agent.create",
      cwd: join(harness.cwd, "nope"),
      model: "mock/chat",
    });
    expect(badCwd.error.code).toBe("INVALID_REQUEST");
  });

  test("a runtime that never becomes ready is killed at the start timeout; a ready one never is", async () => {
    // Long enough for a start on a loaded 2-core machine; the turn below outlasts it.
    harness = await startHarness({ startTimeoutMs: 5000 });
    const a = await harness.unixClient();
    const agentId = await harness.createAgent(a);
    await a.ok({ type: "agent.attach", agent_id: agentId });
    // A turn that outlasts the start timeout finishes: readiness cancelled the timer.
    llm().enqueue({ steps: [{ delay_ms: 6000 }, { text: "slow but fine" }] });
    const events = await turn(a, agentId, "take your time");
    expect(JSON.stringify(events)).toContain("slow but fine");
    expect(a.messages.some((m) => m.type === "agent_exited")).toBe(false);
    await harness.stop();

    // `sh -c "sleep 30"` takes the agent arguments as $0…: it never says hello.
    harness = await startHarness({
      startTimeoutMs: 300,
      shardCommand: ["sh", "-c", "sleep 30"],
    });
    const b = await harness.unixClient();
    const res = await b.request({ type: "agent.create", cwd: harness.cwd, model: "mock/chat" });
    expect(res.error.code).toBe("RUNTIME_START_FAILED");
    expect(res.error.message).toContain("did not become ready within 300 ms");
    await b.waitType("agent_exited");
  });

  test("an idle runtime is reaped after the timeout and restored by the next prompt", async () => {
    harness = await startHarness({ idleRuntimeTimeoutMs: 300 });
    const a = await harness.unixClient();
    const agentId = await harness.createAgent(a);
    await a.ok({ type: "agent.attach", agent_id: agentId });
    await a.waitFor((m) => m.type === "agent_status_changed" && m.runtime_state === "stopped");
    // Reaping is not a crash.
    expect(a.messages.some((m) => m.type === "agent_exited")).toBe(false);
    const events = await turn(a, agentId, "wake up");
    expect(events.find((m) => m.type === "sync")?.runtime_epoch).toBe(1);
  });

  test("kill stops a busy runtime (no agent_exited: it was asked for); attach restores it", async () => {
    harness = await startHarness();
    const a = await harness.unixClient();
    const agentId = await harness.createAgent(a);
    await a.ok({ type: "agent.attach", agent_id: agentId });
    llm().enqueue({ steps: [{ text: "working" }, { hold: "kill-busy" }] }); // never released: the kill cuts it
    const from = a.messages.length;
    await a.ok({ type: "prompt", agent_id: agentId, message: "long job" });
    await a.waitAgent(agentId, "message_delta", from);
    await a.ok({ type: "agent.kill", agent_id: agentId, force: true });
    // Answered once the process is gone.
    const status = await a.ok({ type: "agent.status", agent_id: agentId });
    expect(status.agents[0]).toMatchObject({ runtime_state: "stopped", status: "idle" });
    expect(a.messages.some((m) => m.type === "agent_exited")).toBe(false);
    const restored = await a.ok({ type: "agent.attach", agent_id: agentId });
    expect(restored.info.runtime_state).toBe("running");
    const sync = await a.waitAgent(agentId, "sync", from);
    expect(sync.runtime_epoch).toBe(1);
    expect(JSON.stringify(sync.live_window)).toContain("long job");
  });

  test("terminate of a busy agent is deferred until its turn ends", async () => {
    harness = await startHarness();
    const a = await harness.unixClient();
    const agentId = await harness.createAgent(a);
    await a.ok({ type: "agent.attach", agent_id: agentId });
    llm().enqueue({ steps: [{ text: "almost" }, { hold: "deferred-terminate" }, { text: " done" }] });
    const from = a.messages.length;
    await a.ok({ type: "prompt", agent_id: agentId, message: "finish this" });
    await a.waitAgent(agentId, "message_delta", from);
    expect(await a.ok({ type: "agent.terminate", agent_id: agentId })).toEqual({ deferred: true });
    llm().release("deferred-terminate");
    await a.waitFor((m) => m.type === "agent_status_changed" && m.runtime_state === "stopped", from);
    const completed = a
      .agentEvents(agentId, from)
      .find((m) => m.type === "message_complete" && m.message.role === "assistant");
    expect(JSON.stringify(completed?.message)).toContain("almost done");
  });

  test("during a deferred terminate the runtime still takes answers, then stops", async () => {
    harness = await startHarness();
    const a = await harness.unixClient();
    const agentId = await harness.createAgent(a);
    await a.ok({ type: "agent.attach", agent_id: agentId });
    const from = a.messages.length;
    const req = await askBash(llm(), a, agentId, "echo bye");
    expect(await a.ok({ type: "agent.terminate", agent_id: agentId })).toEqual({ deferred: true });
    // Still attachable while it finishes.
    const watcher = await harness.unixClient();
    await watcher.ok({ type: "agent.attach", agent_id: agentId, role: "observer" });
    await a.ok({
      type: "permission_response",
      agent_id: agentId,
      request_id: req.request_id,
      decision: "allow",
    });
    expect((await a.waitAgent(agentId, "permission_resolved", from)).decision).toBe("allow");
    await a.waitAgent(agentId, "turn_end", from);
    await a.waitFor((m) => m.type === "agent_status_changed" && m.runtime_state === "stopped", from);
  });

  test("an active runtime is never reaped, however long its turn", async () => {
    harness = await startHarness({ idleRuntimeTimeoutMs: 200 });
    const a = await harness.unixClient();
    const agentId = await harness.createAgent(a);
    await a.ok({ type: "agent.attach", agent_id: agentId });
    llm().enqueue({ steps: [{ text: "slow" }, { delay_ms: 1200 }, { text: " and steady" }] });
    const from = a.messages.length;
    await a.ok({ type: "prompt", agent_id: agentId, message: "take longer than the idle timeout" });
    const end = a.messages.indexOf(await a.waitAgent(agentId, "turn_end", from));
    const before = a.messages.slice(from, end);
    expect(before.some((m) => m.type === "agent_status_changed" && m.runtime_state !== "running")).toBe(
      false,
    );
    // Once idle again, the timeout applies.
    await a.waitFor((m) => m.type === "agent_status_changed" && m.runtime_state === "stopped", end);
  });

  test("terminate stops an idle runtime at once; the durable agent stays", async () => {
    harness = await startHarness();
    const a = await harness.unixClient();
    const agentId = await harness.createAgent(a);
    expect(await a.ok({ type: "agent.terminate", agent_id: agentId })).toEqual({ deferred: false });
    await a.waitFor((m) => m.type === "agent_status_changed" && m.runtime_state === "stopped");
    const listed = await a.ok({ type: "agent.status", agent_id: agentId });
    expect(listed.agents[0]).toMatchObject({ agent_id: agentId, runtime_state: "stopped", status: "idle" });
  });

  test("a stopped agent still lists its model and usage, and attach brings its conversation back", async () => {
    harness = await startHarness();
    const a = await harness.unixClient();
    const agentId = await harness.createAgent(a);
    await a.ok({ type: "agent.attach", agent_id: agentId });
    llm().enqueue({ steps: [{ text: "the stored answer" }], usage: { input: 12, output: 3 } });
    await turn(a, agentId, "remember this question");
    await a.ok({ type: "agent.terminate", agent_id: agentId });
    await a.waitFor((m) => m.type === "agent_status_changed" && m.runtime_state === "stopped");
    const listed = await a.ok({ type: "agent.status", agent_id: agentId });
    expect(listed.agents[0]).toMatchObject({ runtime_state: "stopped", usage: { input: 12, output: 3 } });
    expect(listed.agents[0].model).toContain("/");

    const b = await harness.unixClient();
    const from = b.messages.length;
    await b.ok({ type: "agent.attach", agent_id: agentId, role: "observer" });
    const sync = await b.waitAgent(agentId, "sync", from);
    expect(sync.runtime_epoch).toBe(1);
    const window = JSON.stringify(sync.live_window);
    expect(window).toContain("remember this question");
    expect(window).toContain("the stored answer");
  });
});

describe("the daemon process", () => {
  test("prints its URL, exits on daemon.shutdown, and lists every agent again after a restart", async () => {
    const home = mockHome(llm().url);
    const first = new DaemonProcess(home);
    processes.push(first);
    expect(await first.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const a = await first.client();
    const cwd = tempDir("cwd");
    const created = await a.ok({ type: "agent.create", cwd, model: "mock/chat" });
    await a.ok({ type: "agent.attach", agent_id: created.agent_id });
    await turn(a, created.agent_id, "note the word mango");
    await a.ok({ type: "daemon.shutdown" });
    expect(await first.exited).toBe(0);
    expect(existsSync(join(home, "daemon.sock"))).toBe(false);

    const second = new DaemonProcess(home);
    processes.push(second);
    await second.url();
    const b = await second.client();
    const listed = await b.ok({ type: "agent.list" });
    expect(listed.agents).toEqual([
      expect.objectContaining({ agent_id: created.agent_id, runtime_state: "stopped" }),
    ]);
    await b.ok({ type: "agent.attach", agent_id: created.agent_id });
    const sync = await b.waitAgent(created.agent_id, "sync");
    expect(JSON.stringify(sync.live_window)).toContain("mango");
    b.close();
  });

  test("a graceful daemon.shutdown lets the running turn finish, then exits", async () => {
    const home = mockHome(llm().url);
    const daemon = new DaemonProcess(home);
    processes.push(daemon);
    await daemon.url();
    const a = await daemon.client();
    const created = await a.ok({ type: "agent.create", cwd: tempDir("cwd"), model: "mock/chat" });
    const agentId = created.agent_id;
    await a.ok({ type: "agent.attach", agent_id: agentId });
    llm().enqueue({ steps: [{ text: "first half" }, { hold: "graceful" }, { text: ", second half" }] });
    const from = a.messages.length;
    await a.ok({ type: "prompt", agent_id: agentId, message: "take a moment" });
    await a.waitAgent(agentId, "message_delta", from);
    await a.ok({ type: "daemon.shutdown" });
    llm().release("graceful");
    const end = await a.waitAgent(agentId, "turn_end", from);
    expect(end.turn_id).toBeString();
    const done = a
      .agentEvents(agentId, from)
      .find((m) => m.type === "message_complete" && m.message.role === "assistant");
    expect(JSON.stringify(done?.message)).toContain("first half, second half");
    expect(await daemon.exited).toBe(0);
  });

  test("plain `shard --port 0` is the daemon: it prints its URL and serves the socket", async () => {
    const home = mockHome(llm().url);
    const daemon = new DaemonProcess(home, ["--port", "0"], []);
    processes.push(daemon);
    expect(await daemon.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const a = await daemon.client();
    expect(await a.ok({ type: "agent.list" })).toEqual({ agents: [] });
    await a.ok({ type: "daemon.shutdown" });
    expect(await daemon.exited).toBe(0);
  });

  test("--headless-timeout sets how long a queued request waits for an interactive client", async () => {
    const home = mockHome(llm().url);
    const daemon = new DaemonProcess(home, ["--port", "0", "--headless-timeout", "1"]);
    processes.push(daemon);
    await daemon.url();
    const a = await daemon.client();
    const created = await a.ok({
      type: "agent.create",
      cwd: tempDir("cwd"),
      model: "mock/chat",
      headless_policy: "queue",
    });
    const agentId = created.agent_id;
    await a.ok({ type: "agent.attach", agent_id: agentId, role: "observer" });
    const from = a.messages.length;
    const request = await askBash(llm(), a, agentId);
    const timeout = await a.waitAgent(agentId, "error", from);
    expect(timeout).toMatchObject({ code: "TIMEOUT" });
    expect(timeout.message).toContain(request.request_id);
    expect(timeout.message).toContain("1000 ms");
    await a.waitAgent(agentId, "turn_end", from);
    await a.ok({ type: "daemon.shutdown", force: true });
    expect(await daemon.exited).toBe(0);
  });

  test("daemon.shutdown with force stops at once, mid-turn", async () => {
    const home = mockHome(llm().url);
    const daemon = new DaemonProcess(home);
    processes.push(daemon);
    await daemon.url();
    const a = await daemon.client();
    const created = await a.ok({ type: "agent.create", cwd: tempDir("cwd"), model: "mock/chat" });
    await a.ok({ type: "agent.attach", agent_id: created.agent_id });
    llm().enqueue({ steps: [{ text: "this takes" }, { hold: "forced" }, { text: " forever" }] }); // never released
    const from = a.messages.length;
    await a.ok({ type: "prompt", agent_id: created.agent_id, message: "long" });
    await a.waitAgent(created.agent_id, "message_delta", from);
    await a.ok({ type: "daemon.shutdown", force: true });
    // The turn cannot end (its stream is held): the process exits and takes the runtime with it.
    expect(await daemon.exited).toBe(0);
    expect(a.agentEvents(created.agent_id, from).some((m) => m.type === "turn_end")).toBe(false);
  });

  test("a second daemon on the same home exits with a message naming the running one", async () => {
    const home = mockHome(llm().url);
    const first = new DaemonProcess(home);
    processes.push(first);
    await first.url();
    const second = new DaemonProcess(home);
    processes.push(second);
    expect(await second.exited).toBe(1);
    expect(second.stderr).toContain("another shard daemon is already running");
    expect(second.stderr).toContain(`pid ${first.proc.pid}`);
    // The first one still serves.
    const a = await first.client();
    expect(await a.ok({ type: "agent.list" })).toEqual({ agents: [] });
    a.close();
  });
});
