/**
 * Inbound backpressure (docs/daemon.md, "Inbound queue"): a connection's queue of commands
 * waiting to be handled is bounded in messages and bytes; while it is full the daemon stops
 * reading that connection (the client's sends back up, nothing is dropped), and once the
 * connection closes its commands that have not started are dropped.
 *
 * A command is held by starting the agent's runtime behind a gate: a real `shard agent` that
 * starts only once the test creates the gate file, so `agent.create` is in progress until then.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SHARD_MAIN, tempDir } from "../agent/support/agent-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import type { DaemonClient, Msg } from "./support/daemon-client.ts";
import { type DaemonHarness, type HarnessOptions, useDaemonHarnesses } from "./support/daemon-harness.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);

/** A daemon whose runtimes start once `open()` has been called. */
async function gatedHarness(options: HarnessOptions = {}): Promise<{ harness: DaemonHarness; open(): void }> {
  const gate = join(tempDir("gate"), "open");
  const harness = await startHarness({
    ...options,
    // The runtime's own arguments follow as "$@"; $0 is the gate file.
    shardCommand: [
      "sh",
      "-c",
      'while [ ! -e "$0" ]; do sleep 0.01; done; exec "$@"',
      gate,
      process.execPath,
      SHARD_MAIN,
    ],
  });
  return { harness, open: () => writeFileSync(gate, "") };
}

/** Waits until daemon.log has a line matching `pattern` (the daemon writes it synchronously). */
async function logLine(home: string, pattern: RegExp): Promise<string> {
  const path = join(home, "logs", "daemon.log");
  const deadline = Date.now() + 20_000;
  for (;;) {
    const text = existsSync(path) ? readFileSync(path, "utf8") : "";
    const line = text.split("\n").find((l) => pattern.test(l));
    if (line !== undefined) return line;
    if (Date.now() > deadline) throw new Error(`daemon.log has no line matching ${pattern}:\n${text}`);
    await Bun.sleep(20);
  }
}

function starting(client: DaemonClient, from = 0): Promise<Msg> {
  return client.waitFor((m) => m.type === "agent_status_changed" && m.runtime_state === "starting", from);
}

const create = (harness: DaemonHarness, i: number) => ({
  type: "agent.create",
  id: `create-${i}`,
  cwd: harness.cwd,
  model: "mock/chat",
  name: `queued-${i}`,
});

describe.each(["unix", "websocket"] as const)("inbound queue over %s", (transport) => {
  test("8 creates sent just before a disconnect: only the one that had started runs", async () => {
    const { harness, open } = await gatedHarness();
    const watcher = await harness.unixClient();
    const a = await harness.client(transport);
    for (let i = 1; i <= 8; i++) a.send(create(harness, i));
    // The first create is in progress (its runtime waits at the gate); the other 7 are queued.
    const first = (await starting(watcher)).agent_id;
    a.close();
    await a.whenClosed();
    await logLine(harness.home, /closed; 7 queued command\(s\) that had not started were dropped/);

    const from = watcher.messages.length;
    open();
    await watcher.waitFor((m) => m.type === "agent_spawned" && m.agent_id === first, from);
    // A later response is the barrier: a next create would have been registered before it.
    const { agents } = await watcher.ok({ type: "agent.list" });
    expect(agents.map((x: Msg) => [x.agent_id, x.name])).toEqual([[first, "queued-1"]]);
  });

  test("while a command is held the queue stops at its bound and the daemon stops reading; then every command is answered, in order", async () => {
    const { harness, open } = await gatedHarness({ inboundLimits: { maxMessages: 1000, maxBytes: 200_000 } });
    const watcher = await harness.unixClient();
    const a = await harness.client(transport);
    a.send(create(harness, 0));
    await starting(watcher);
    // 64 commands of ~64 KiB each (4 MiB), padded with a field agent.status ignores.
    const padding = "x".repeat(64 * 1024);
    const ids = Array.from({ length: 64 }, (_, i) => `status-${i}`);
    for (const id of ids) a.send({ type: "agent.status", id, padding });

    // The first 4 reach 200,000 bytes: reading pauses there.
    const paused = await logLine(harness.home, /wait to be handled; reading paused/);
    expect(paused).toContain(": 4 messages (");
    // What the daemon did not read stays with the client once the socket buffer (~200 KiB) is
    // full. (Over TCP the kernel's buffers, up to tcp_rmem's 32 MiB here, hide it from the client.)
    if (transport === "unix") expect(a.unsentBytes).toBeGreaterThan(2 * 1024 * 1024);

    const from = a.messages.length;
    open();
    const created = await a.waitFor((m) => m.type === "response" && m.id === "create-0");
    expect(created.success).toBe(true);
    await a.waitFor((m) => m.type === "response" && m.id === ids.at(-1), from);
    const answered = a.messages.filter((m) => m.type === "response" && String(m.id).startsWith("status-"));
    expect(answered.map((m) => m.id)).toEqual(ids);
    expect(answered.every((m) => m.success)).toBe(true);
    expect(a.unsentBytes).toBe(0);
  });
});

/**
 * Unix socket only: on the WebSocket a clean close is a frame, read in order after the frames
 * sent before it (docs/daemon.md), so those are handled.
 */
test("unix: a client that fills its queue and disconnects: what it queued never runs, though a paused socket hides the close", async () => {
  const { harness, open } = await gatedHarness({ inboundLimits: { maxMessages: 4, maxBytes: 1 << 20 } });
  const watcher = await harness.unixClient();
  const a = await harness.unixClient();
  for (let i = 1; i <= 20; i++) a.send(create(harness, i));
  const first = (await starting(watcher)).agent_id;
  await logLine(harness.home, /wait to be handled; reading paused/);
  a.close();
  await a.whenClosed();

  // Paused, the daemon reads nothing, the close included: it learns of it when it answers the
  // first create, and drops the queue then.
  const from = watcher.messages.length;
  open();
  await watcher.waitFor((m) => m.type === "agent_spawned" && m.agent_id === first, from);
  await logLine(harness.home, /closed; \d+ queued command\(s\) that had not started were dropped/);
  const { agents } = await watcher.ok({ type: "agent.list" });
  expect(agents.map((x: Msg) => x.name)).toEqual(["queued-1"]);
});
