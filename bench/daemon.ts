/**
 * Daemon benchmarks (issue 8): a real `shard daemon` child, real `shard agent` runtimes, the
 * local streaming server, clients on the unix socket.
 *   - daemon start → socket ready (hello on a connection)
 *   - a 10,000-delta turn through the daemon against the same turn direct on stdio
 *   - fan-out of one agent to 50 clients (every client gets every delta)
 *   - daemon RSS with 20 durable agents whose runtimes are stopped, and with 5 live ones
 * Usage: bun bench/daemon.ts [--runs 5] [--binary dist/shard] [--only start,turn,fanout,rss,sync]
 */
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createSession } from "../src/session/create-session.ts";
import { JsonlDecoder } from "../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../src/wire/jsonl-encoder.ts";
import { startMockLlmServer } from "../test/support/mock-llm/server.ts";

const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 5;
const MAIN = resolve(import.meta.dir, "../src/cli/main.ts");
const binaryAt = process.argv.indexOf("--binary");
const SHARD = binaryAt > 0 ? [resolve(process.argv[binaryAt + 1] ?? "dist/shard")] : [process.execPath, MAIN];
const onlyAt = process.argv.indexOf("--only");
const only = onlyAt > 0 ? new Set((process.argv[onlyAt + 1] ?? "").split(",")) : undefined;
const measures = (name: string) => only === undefined || only.has(name);
const server = await startMockLlmServer({ recordRequests: false });

type Msg = { type: string } & Record<string, unknown>;

function freshHome(): string {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "shard-bench-daemon-")));
  writeFileSync(
    join(home, "models.json"),
    JSON.stringify({
      providers: {
        mock: {
          api: "openai-completions",
          base_url: `${server.url}/v1`,
          api_key: "bench",
          models: [
            {
              id: "chat",
              context_window: 1_000_000,
              max_output: 4096,
              reasoning: false,
              cost: { input: 0, output: 0 },
            },
          ],
        },
      },
    }),
  );
  return home;
}

const cwd = realpathSync(mkdtempSync(join(tmpdir(), "shard-bench-cwd-")));

/** A lean JSONL peer (no schema checks: the client side must not be what is measured). */
class Peer {
  count = 0;
  deltas = 0;
  private waiters: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  private nextId = 0;
  constructor(private readonly write: (text: string) => void) {}

  receive(m: Msg): void {
    this.count++;
    if (m.type === "message_delta") this.deltas++;
    if (this.waiters.length === 0) return;
    this.waiters = this.waiters.filter((w) => {
      if (!w.pred(m)) return true;
      w.resolve(m);
      return false;
    });
  }

  until(pred: (m: Msg) => boolean): Promise<Msg> {
    return new Promise((resolve) => this.waiters.push({ pred, resolve }));
  }

  send(m: object): void {
    this.write(encodeJsonLine(m));
  }

  async request(m: Msg): Promise<Msg> {
    const id = `b${++this.nextId}`;
    const response = this.until((r) => r.type === "response" && r.id === id);
    this.send({ ...m, id });
    const res = await response;
    if (!res.success) throw new Error(`${m.type}: ${JSON.stringify(res.error)}`);
    return res;
  }
}

async function socketPeer(path: string): Promise<Peer> {
  let socketRef: Bun.Socket<undefined> | undefined;
  const peer = new Peer((text) => {
    socketRef?.write(text);
    socketRef?.flush();
  });
  const decoder = new JsonlDecoder({ value: (v) => peer.receive(v as Msg), error: () => {} });
  const hello = peer.until((m) => m.type === "hello");
  socketRef = await Bun.connect({ unix: path, socket: { data: (_s, chunk) => decoder.push(chunk) } });
  await hello;
  return peer;
}

class Daemon {
  readonly home = freshHome();
  readonly proc = Bun.spawn([...SHARD, "daemon", "--port", "0", "--idle-runtime-timeout", "0"], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "ignore",
    env: { ...process.env, SHARD_HOME: this.home, HOME: this.home },
  });

  get socket(): string {
    return join(this.home, "daemon.sock");
  }

  /** Resolves once a client connected and got hello. */
  async ready(): Promise<Peer> {
    for (;;) {
      try {
        return await socketPeer(this.socket);
      } catch {
        await Bun.sleep(1);
      }
    }
  }

  rssMb(): number {
    const status = readFileSync(`/proc/${this.proc.pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  }

  async stop(peer: Peer): Promise<void> {
    peer.send({ type: "daemon.shutdown", id: "stop", force: true });
    await this.proc.exited;
  }
}

class DirectAgent {
  readonly peer: Peer;
  readonly proc = Bun.spawn([...SHARD, "agent", "--cwd", cwd, "--model", "mock/chat"], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "ignore",
    env: { ...process.env, SHARD_HOME: freshHome() },
  });
  constructor() {
    this.peer = new Peer((text) => {
      this.proc.stdin.write(text);
      this.proc.stdin.flush();
    });
    const decoder = new JsonlDecoder({ value: (v) => this.peer.receive(v as Msg), error: () => {} });
    void (async () => {
      for await (const chunk of this.proc.stdout) decoder.push(chunk);
    })();
  }
}

const DELTAS = 10_000;
const flood = () =>
  server.enqueue({
    steps: [{ text: "x".repeat(DELTAS), chunks: DELTAS }],
    usage: { input: 10, output: DELTAS },
  });

async function timedTurn(peer: Peer, agentId?: string): Promise<number> {
  const routing = agentId ? { agent_id: agentId } : {};
  server.enqueue({ steps: [{ text: "warm" }] });
  const warm = peer.until((m) => m.type === "turn_end");
  await peer.request({ type: "prompt", message: "warm up", ...routing });
  await warm;
  flood();
  const t = performance.now();
  const end = peer.until((m) => m.type === "turn_end");
  await peer.request({ type: "prompt", message: "stream", ...routing });
  await end;
  return performance.now() - t;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

// 1. start → socket ready
const starts: number[] = [];
for (let i = 0; measures("start") && i < runs; i++) {
  const t = performance.now();
  const daemon = new Daemon();
  const peer = await daemon.ready();
  starts.push(performance.now() - t);
  await daemon.stop(peer);
}
if (measures("start"))
  console.log(
    `| daemon start → socket ready | median ${fmt(median(starts))} (min ${fmt(Math.min(...starts))}) |`,
  );

// 2. 10,000-delta turn: direct vs through the daemon
const direct: number[] = [];
const viaDaemon: number[] = [];
for (let i = 0; measures("turn") && i < runs; i++) {
  const agent = new DirectAgent();
  await agent.peer.until((m) => m.type === "sync");
  direct.push(await timedTurn(agent.peer));
  agent.proc.stdin.end();
  await agent.proc.exited;

  const daemon = new Daemon();
  const peer = await daemon.ready();
  const created = await peer.request({ type: "agent.create", cwd, model: "mock/chat" });
  const agentId = (created.data as { agent_id: string }).agent_id;
  await peer.request({ type: "agent.attach", agent_id: agentId });
  viaDaemon.push(await timedTurn(peer, agentId));
  await daemon.stop(peer);
}
if (measures("turn"))
  console.log(
    `| ${DELTAS.toLocaleString("en-US")}-delta turn | direct ${fmt(median(direct))} · through the daemon ${fmt(median(viaDaemon))} (${(median(viaDaemon) / median(direct)).toFixed(2)}×) |`,
  );

// 3. fan-out to 50 clients
if (measures("fanout")) {
  const daemon = new Daemon();
  const owner = await daemon.ready();
  const created = await owner.request({ type: "agent.create", cwd, model: "mock/chat" });
  const agentId = (created.data as { agent_id: string }).agent_id;
  await owner.request({ type: "agent.attach", agent_id: agentId });
  const watchers: Peer[] = [];
  for (let i = 0; i < 50; i++) {
    const w = await socketPeer(daemon.socket);
    await w.request({ type: "agent.attach", agent_id: agentId, role: "observer" });
    watchers.push(w);
  }
  server.enqueue({ steps: [{ text: "warm" }] });
  await Promise.all(
    [owner, ...watchers]
      .map((w) => w.until((m) => m.type === "turn_end"))
      .concat(owner.request({ type: "prompt", message: "warm", agent_id: agentId })),
  );
  for (const w of watchers) w.deltas = 0;
  flood();
  const t = performance.now();
  const ends = watchers.map((w) => w.until((m) => m.type === "turn_end"));
  await owner.request({ type: "prompt", message: "stream", agent_id: agentId });
  await Promise.all(ends);
  const ms = performance.now() - t;
  const complete = watchers.every((w) => w.deltas === DELTAS);
  console.log(
    `| fan-out, ${DELTAS.toLocaleString("en-US")} deltas to 50 clients | ${fmt(ms)} until the last client's turn_end; every client got every delta: ${complete} | daemon RSS ${daemon.rssMb().toFixed(0)} MB |`,
  );
  await daemon.stop(owner);
}

// 4. RSS: 20 durable agents (runtimes stopped), 5 live
if (measures("rss")) {
  const daemon = new Daemon();
  const peer = await daemon.ready();
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) {
    const created = await peer.request({ type: "agent.create", cwd, model: "mock/chat" });
    ids.push((created.data as { agent_id: string }).agent_id);
  }
  for (const id of ids.slice(5)) {
    const stopped = peer.until(
      (m) => m.type === "agent_status_changed" && m.agent_id === id && m.runtime_state === "stopped",
    );
    await peer.request({ type: "agent.terminate", agent_id: id });
    await stopped;
  }
  const fiveLive = daemon.rssMb();
  for (const id of ids.slice(0, 5)) {
    const stopped = peer.until(
      (m) => m.type === "agent_status_changed" && m.agent_id === id && m.runtime_state === "stopped",
    );
    await peer.request({ type: "agent.terminate", agent_id: id });
    await stopped;
  }
  console.log(
    `| daemon RSS | 20 durable agents, 5 runtimes live: ${fiveLive.toFixed(0)} MB · all 20 stopped: ${daemon.rssMb().toFixed(0)} MB |`,
  );
  await daemon.stop(peer);
}

// 5. attach → sync of a 10,000-message session (adopted, then attached while its runtime runs)
if (measures("sync")) {
  const daemon = new Daemon();
  const peer = await daemon.ready();
  const store = createSession({ home: daemon.home, cwd });
  for (let i = 0; i < 5_000; i++) {
    store.append({
      type: "message",
      message: {
        id: `msg_u${i}`,
        role: "user",
        content: [{ type: "text", text: `question ${i} `.repeat(8) }],
      },
    });
    store.append({
      type: "message",
      message: {
        id: `msg_a${i}`,
        role: "assistant",
        content: [{ type: "text", text: `answer ${i} `.repeat(20) }],
      },
    });
  }
  const sessionId = store.sessionId;
  store.close();
  let t = performance.now();
  const created = await peer.request({ type: "agent.create", cwd, session_id: sessionId });
  const restore = performance.now() - t;
  const agentId = (created.data as { agent_id: string }).agent_id;
  const attaches: number[] = [];
  for (let i = 0; i < runs; i++) {
    const client = await socketPeer(daemon.socket);
    t = performance.now();
    const sync = client.until((m) => m.type === "sync");
    await client.request({ type: "agent.attach", agent_id: agentId, role: "observer" });
    const got = await sync;
    attaches.push(performance.now() - t);
    if ((got.live_window as { messages: unknown[] }).messages.length !== 10_000)
      throw new Error("sync lost messages");
  }
  console.log(
    `| attach → sync, 10,000-message session | ${fmt(median(attaches))} with its runtime running (adopt + start: ${fmt(restore)}) |`,
  );
  await daemon.stop(peer);
}

await server.close();
