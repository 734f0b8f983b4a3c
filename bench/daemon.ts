/**
 * Daemon benchmarks (issue 8): a real `shard daemon` child, real `shard agent` runtimes, the
 * local streaming server, clients on the unix socket.
 *   - daemon start → socket ready (hello on a connection)
 *   - N-delta turns through the daemon against the same turns direct on stdio, in the same
 *     run (direct, then daemon, per build and repetition), with the daemon's CPU time per turn
 *     and the runtime's in both (does the runtime work more when its client is the daemon?)
 *   - fan-out of one agent to 50 clients (every client gets every delta)
 *   - daemon RSS with 20 durable agents whose runtimes are stopped, and with 5 live ones
 * Usage: bun bench/daemon.ts [--runs 5] [--binary dist/shard]... [--sources] [--deltas 10000,50000]
 *                            [--warm-deltas 1000] [--only start,turn,fanout,rss,sync] [--threads] [--relay]
 * `--threads` adds the daemon's CPU per turn split by thread (its JS thread, the JIT compiler
 * threads, GC helpers), medians, from /proc/<pid>/task/<tid>/{comm,schedstat}.
 * `--relay` adds the same turn through a byte relay (bench/support/byte-relay.ts): a process that
 * copies the runtime's output to a unix socket client without reading it — the floor of any
 * process hop on this machine, to hold the daemon's ratio against.
 * Several builds (`--binary A --binary B`, `--sources`) take turns in each repetition of the turn
 * measure (A/B on the same machine state); the other measures use the first.
 */
import { mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createSession } from "../src/session/create-session.ts";
import { JsonlDecoder } from "../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../src/wire/jsonl-encoder.ts";
import { startMockLlmServer } from "../test/support/mock-llm/server.ts";

const argv = process.argv.slice(2);
const runs = Number(argv[argv.indexOf("--runs") + 1]) || 5;
const MAIN = resolve(import.meta.dir, "../src/cli/main.ts");
const builds: { name: string; command: string[] }[] = [];
argv.forEach((arg, i) => {
  const path = argv[i + 1];
  if (arg === "--binary")
    builds.push({ name: path ?? "dist/shard", command: [resolve(path ?? "dist/shard")] });
  if (arg === "--sources") builds.push({ name: "sources", command: [process.execPath, MAIN] });
});
if (builds.length === 0) builds.push({ name: "sources", command: [process.execPath, MAIN] });
const SHARD = builds[0]?.command ?? [process.execPath, MAIN];
const deltasAt = argv.indexOf("--deltas");
const DELTA_COUNTS = deltasAt >= 0 ? (argv[deltasAt + 1] ?? "").split(",").map(Number) : [10_000];
const onlyAt = argv.indexOf("--only");
const only = onlyAt >= 0 ? new Set((argv[onlyAt + 1] ?? "").split(",")) : undefined;
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
  readonly proc: Bun.Subprocess<"ignore", "pipe", "ignore">;

  constructor(shard: string[] = SHARD) {
    this.proc = Bun.spawn([...shard, "daemon", "--port", "0", "--idle-runtime-timeout", "0"], {
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
      env: { ...process.env, SHARD_HOME: this.home, HOME: this.home },
    });
  }

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

  /** CPU time each kind of the daemon's threads has used so far (numbered names summed). */
  threadCpuMs(): Map<string, number> {
    return threadCpuMs(this.proc.pid);
  }

  /** CPU time the daemon process has used so far, all its threads (not its runtimes). */
  cpuMs(): number {
    return processCpuMs(this.proc.pid);
  }

  /** The daemon's child processes: its runtimes. */
  children(): number[] {
    const list = readFileSync(`/proc/${this.proc.pid}/task/${this.proc.pid}/children`, "utf8").trim();
    return list === "" ? [] : list.split(/\s+/).map(Number);
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

/** CPU time each kind of a process's threads has used so far (numbered names summed). */
function threadCpuMs(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const dir = `/proc/${pid}/task/${task}`;
    try {
      const name = readFileSync(`${dir}/comm`, "utf8").trim().replace(/\d+$/, "");
      const ns = Number(readFileSync(`${dir}/schedstat`, "utf8").split(" ")[0]);
      byName.set(name, (byName.get(name) ?? 0) + ns / 1e6);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return byName;
}

/** Adds each thread kind's CPU since `before` to `into` (one sample per kind). */
function addThreadSamples(into: Map<string, number[]>, pid: number, before: Map<string, number>): void {
  for (const [name, ms] of threadCpuMs(pid)) {
    const list = into.get(name) ?? [];
    list.push(ms - (before.get(name) ?? 0));
    into.set(name, list);
  }
}

/** Minor page faults a process has taken so far (/proc/<pid>/stat, field 10). */
function minorFaults(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces; the fields after its ")" are plain.
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[7]);
}

/** CPU time a process has used so far, all its threads. */
function processCpuMs(pid: number): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`))
    ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
  return ns / 1e6;
}

class DirectAgent {
  readonly peer: Peer;
  readonly proc: Bun.Subprocess<"pipe", "pipe", "ignore">;
  constructor(shard: string[]) {
    const proc = Bun.spawn([...shard, "agent", "--cwd", cwd, "--model", "mock/chat"], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "ignore",
      env: { ...process.env, SHARD_HOME: freshHome() },
    });
    this.proc = proc;
    const peer = new Peer((text) => {
      proc.stdin.write(text);
      proc.stdin.flush();
    });
    this.peer = peer;
    const decoder = new JsonlDecoder({ value: (v) => peer.receive(v as Msg), error: () => {} });
    void (async () => {
      for await (const chunk of proc.stdout) decoder.push(chunk);
    })();
  }
}

const DELTAS = 10_000;
const flood = (deltas = DELTAS) =>
  server.enqueue({
    steps: [{ text: "x".repeat(deltas), chunks: deltas }],
    usage: { input: 10, output: deltas },
  });

const warmAt = argv.indexOf("--warm-deltas");
/** Deltas of the untimed turn before the timed ones (bench/peers runs a 1,000-delta turn first). */
const WARM_DELTAS = warmAt >= 0 ? Number(argv[warmAt + 1]) : 0;

async function warmUp(peer: Peer, agentId?: string): Promise<void> {
  const routing = agentId ? { agent_id: agentId } : {};
  server.enqueue({ steps: [{ text: "warm" }] });
  const warm = peer.until((m) => m.type === "turn_end");
  await peer.request({ type: "prompt", message: "warm up", ...routing });
  await warm;
  if (WARM_DELTAS > 0) await streamTurn(peer, WARM_DELTAS, agentId);
}

/** One timed turn of `deltas` text deltas, from the prompt to `turn_end` at the client. */
async function streamTurn(peer: Peer, deltas: number, agentId?: string): Promise<number> {
  const routing = agentId ? { agent_id: agentId } : {};
  flood(deltas);
  const before = peer.deltas;
  const t = performance.now();
  const end = peer.until((m) => m.type === "turn_end");
  await peer.request({ type: "prompt", message: "stream", ...routing });
  await end;
  const ms = performance.now() - t;
  if (peer.deltas - before !== deltas) throw new Error(`${peer.deltas - before} of ${deltas} deltas arrived`);
  return ms;
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

// 2. N-delta turns: direct vs through the daemon, each build in turn within a repetition
interface TurnSamples {
  direct: number[];
  daemon: number[];
  ratio: number[];
  daemonCpu: number[];
  /** Through the byte relay (`--relay`), and the relay's CPU per turn. */
  relay: number[];
  relayCpu: number[];
  /** The runtime's CPU per turn, direct and through the daemon. */
  runtimeCpuDirect: number[];
  runtimeCpuDaemon: number[];
  /** By thread name (the daemon's own JS thread is named after its executable). */
  threads: Map<string, number[]>;
  /** The daemon's minor page faults per turn. */
  daemonFaults: number[];
  /** The runtime's, direct and through the daemon. */
  runtimeThreadsDirect: Map<string, number[]>;
  runtimeThreadsDaemon: Map<string, number[]>;
}
const SHOW_THREADS = argv.includes("--threads");
const RELAY = argv.includes("--relay");
const RELAY_SCRIPT = resolve(import.meta.dir, "support/byte-relay.ts");

/**
 * The build's runtime behind a byte relay; the turns of `DELTA_COUNTS`, timed at its client,
 * with the relay's own CPU per turn (what a process that only moves the bytes costs).
 */
async function relayTurns(shard: string[]): Promise<{ ms: number; cpuMs: number }[]> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "shard-bench-relay-")));
  const socket = join(dir, "relay.sock");
  const relay = Bun.spawn(
    [process.execPath, RELAY_SCRIPT, socket, ...shard, "agent", "--cwd", cwd, "--model", "mock/chat"],
    {
      stdin: "ignore",
      stdout: "ignore",
      stderr: "inherit",
      env: { ...process.env, SHARD_HOME: freshHome() },
    },
  );
  let peer: Peer | undefined;
  while (peer === undefined) {
    try {
      peer = await socketPeer(socket);
    } catch {
      await Bun.sleep(1);
    }
  }
  await warmUp(peer);
  const times: { ms: number; cpuMs: number }[] = [];
  for (const deltas of DELTA_COUNTS) {
    const before = processCpuMs(relay.pid);
    const ms = await streamTurn(peer, deltas);
    times.push({ ms, cpuMs: processCpuMs(relay.pid) - before });
  }
  relay.kill();
  await relay.exited;
  return times;
}
const turns = new Map<string, TurnSamples>();
const samples = (build: string, deltas: number): TurnSamples => {
  const key = `${build}\u0000${deltas}`;
  let found = turns.get(key);
  if (!found) {
    found = {
      direct: [],
      daemon: [],
      ratio: [],
      daemonCpu: [],
      relay: [],
      relayCpu: [],
      runtimeCpuDirect: [],
      runtimeCpuDaemon: [],
      threads: new Map(),
      daemonFaults: [],
      runtimeThreadsDirect: new Map(),
      runtimeThreadsDaemon: new Map(),
    };
    turns.set(key, found);
  }
  return found;
};
for (let i = 0; measures("turn") && i < runs; i++) {
  for (const build of builds) {
    const agent = new DirectAgent(build.command);
    await agent.peer.until((m) => m.type === "sync");
    await warmUp(agent.peer);
    const direct: number[] = [];
    const directRuntimeCpu: number[] = [];
    for (const deltas of DELTA_COUNTS) {
      const before = processCpuMs(agent.proc.pid);
      const threadsBefore = threadCpuMs(agent.proc.pid);
      direct.push(await streamTurn(agent.peer, deltas));
      directRuntimeCpu.push(processCpuMs(agent.proc.pid) - before);
      addThreadSamples(samples(build.name, deltas).runtimeThreadsDirect, agent.proc.pid, threadsBefore);
    }
    agent.proc.stdin.end();
    await agent.proc.exited;
    if (RELAY)
      for (const [k, turn] of (await relayTurns(build.command)).entries()) {
        const s = samples(build.name, DELTA_COUNTS[k] ?? 0);
        s.relay.push(turn.ms);
        s.relayCpu.push(turn.cpuMs);
      }

    const daemon = new Daemon(build.command);
    const peer = await daemon.ready();
    const created = await peer.request({ type: "agent.create", cwd, model: "mock/chat" });
    const agentId = (created.data as { agent_id: string }).agent_id;
    await peer.request({ type: "agent.attach", agent_id: agentId });
    await warmUp(peer, agentId);
    for (const [k, deltas] of DELTA_COUNTS.entries()) {
      const cpuBefore = daemon.cpuMs();
      const threadsBefore = daemon.threadCpuMs();
      const faultsBefore = minorFaults(daemon.proc.pid);
      const [runtime] = daemon.children();
      const runtimeBefore = runtime === undefined ? 0 : processCpuMs(runtime);
      const runtimeThreadsBefore = runtime === undefined ? new Map<string, number>() : threadCpuMs(runtime);
      const ms = await streamTurn(peer, deltas, agentId);
      const s = samples(build.name, deltas);
      const directMs = direct[k] ?? 0;
      s.direct.push(directMs);
      s.daemon.push(ms);
      s.ratio.push(ms / directMs);
      s.daemonCpu.push(daemon.cpuMs() - cpuBefore);
      s.runtimeCpuDirect.push(directRuntimeCpu[k] ?? 0);
      if (runtime !== undefined) {
        s.runtimeCpuDaemon.push(processCpuMs(runtime) - runtimeBefore);
        addThreadSamples(s.runtimeThreadsDaemon, runtime, runtimeThreadsBefore);
      }
      addThreadSamples(s.threads, daemon.proc.pid, threadsBefore);
      s.daemonFaults.push(minorFaults(daemon.proc.pid) - faultsBefore);
    }
    await daemon.stop(peer);
  }
}
if (measures("turn")) {
  for (const build of builds)
    for (const deltas of DELTA_COUNTS) {
      const s = samples(build.name, deltas);
      console.log(
        `| ${deltas.toLocaleString("en-US")}-delta turn${builds.length > 1 ? ` (${build.name})` : ""} | direct ${fmt(median(s.direct))} · through the daemon ${fmt(median(s.daemon))} (${(median(s.daemon) / median(s.direct)).toFixed(2)}×; median of the per-run ratios ${median(s.ratio).toFixed(2)}×) | daemon CPU ${fmt(median(s.daemonCpu))} | runtime CPU direct ${fmt(median(s.runtimeCpuDirect))} · daemon ${fmt(median(s.runtimeCpuDaemon))} |`,
      );
      if (RELAY)
        console.log(
          `|   through a byte relay | ${fmt(median(s.relay))} (${(median(s.relay) / median(s.direct)).toFixed(2)}× direct), relay CPU ${fmt(median(s.relayCpu))}: the floor of a process hop |`,
        );
      if (SHOW_THREADS) {
        const split = (threads: Map<string, number[]>) =>
          [...threads]
            .map(([name, ms]) => ({ name, ms: median(ms) }))
            .filter((t) => t.ms >= 0.5)
            .map((t) => `${t.name} ${fmt(t.ms)}`)
            .join(", ");
        console.log(`|   daemon by thread | ${split(s.threads)}; ${median(s.daemonFaults)} page faults |`);
        console.log(`|   runtime by thread, direct | ${split(s.runtimeThreadsDirect)} |`);
        console.log(`|   runtime by thread, under the daemon | ${split(s.runtimeThreadsDaemon)} |`);
      }
    }
}

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
