/**
 * Agent runtime benchmarks against the local streaming server (same process model as the
 * peers: a real `shard agent` child on stdio):
 *   - spawn → hello latency
 *   - a turn of N text deltas (time, events/s), for N = 1k, 10k, 20k (cost must be linear)
 *   - a tool turn (read → answer)
 *   - peak RSS of the agent (VmHWM)
 * Each build named is measured in turn within every run (A B A B …), so builds compared in
 * one command share the machine's state. Besides the time at the client, each turn reports
 * the agent's CPU time over the turn, all threads (the JIT's and GC's too) and the JavaScript
 * thread alone, from /proc/<pid>/task/<tid>/schedstat: it moves much less than wall time when
 * other work shares the cores.
 * Usage: bun bench/agent.ts [--runs 5] [--deltas 1000,10000,20000] [--binary dist/shard]... [--sources]
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isRecord } from "../src/support/is-record.ts";
import { JsonlDecoder } from "../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../src/wire/jsonl-encoder.ts";
import { startMockLlmServer } from "../test/support/mock-llm/server.ts";
import { benchHome, benchTempDir } from "./support/bench-home.ts";
import { buildsFromArgs } from "./support/builds.ts";

const argv = process.argv.slice(2);
const runs = Number(argv[argv.indexOf("--runs") + 1]) || 5;
const deltaCounts = (
  argv.includes("--deltas") ? (argv[argv.indexOf("--deltas") + 1] ?? "") : "1000,10000,20000"
)
  .split(",")
  .map(Number)
  .filter((n) => n > 0);
const builds = buildsFromArgs(argv);

const server = await startMockLlmServer({ recordRequests: false });
const home = benchHome(server.url);
const cwd = benchTempDir("cwd");
writeFileSync(join(cwd, "notes.txt"), "hello from the benchmark\n".repeat(50));

type Msg = { type: string } & Record<string, unknown>;

class Agent {
  readonly proc: Bun.Subprocess<"pipe", "pipe", "ignore">;
  events = 0;
  private waiter: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void } | undefined;

  constructor(command: string[]) {
    const proc = Bun.spawn([...command, "agent", "--cwd", cwd, "--model", "mock/chat"], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "ignore",
      env: { ...process.env, SHARD_HOME: home, HOME: home },
    });
    this.proc = proc;
    const decoder = new JsonlDecoder({ value: (v) => this.receive(v), error: () => {} });
    void (async () => {
      for await (const chunk of proc.stdout) decoder.push(chunk);
    })();
  }

  private receive(value: unknown): void {
    this.events++;
    if (!this.waiter || !isRecord(value) || typeof value.type !== "string") return;
    const m: Msg = { ...value, type: value.type };
    if (this.waiter?.pred(m)) {
      const w = this.waiter;
      this.waiter = undefined;
      w.resolve(m);
    }
  }

  until(pred: (m: Msg) => boolean): Promise<Msg> {
    return new Promise((r) => {
      this.waiter = { pred, resolve: r };
    });
  }

  send(m: object): void {
    this.proc.stdin.write(encodeJsonLine(m));
    this.proc.stdin.flush();
  }

  /** A prompt until its `turn_end`: the time at this client and the agent's CPU time, ms. */
  async turn(message: string): Promise<{ ms: number; cpuMs: number; mainCpuMs: number }> {
    const end = this.until((m) => m.type === "turn_end");
    const cpu = this.cpuMs();
    const main = this.threadCpuMs(this.proc.pid);
    const t = performance.now();
    this.send({ type: "prompt", message });
    await end;
    const ms = performance.now() - t;
    return { ms, cpuMs: this.cpuMs() - cpu, mainCpuMs: this.threadCpuMs(this.proc.pid) - main };
  }

  /** CPU time of the agent's live threads so far, ms. */
  cpuMs(): number {
    let ms = 0;
    for (const tid of readdirSync(`/proc/${this.proc.pid}/task`)) ms += this.threadCpuMs(Number(tid));
    return ms;
  }

  /** Nanoseconds on CPU from schedstat, as ms; 0 for a thread that has ended. */
  threadCpuMs(tid: number): number {
    try {
      return Number(readFileSync(`/proc/${this.proc.pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
    } catch {
      return 0;
    }
  }

  peakRssMb(): number {
    const status = readFileSync(`/proc/${this.proc.pid}/status`, "utf8");
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  }

  async close(): Promise<void> {
    this.proc.stdin.end();
    await this.proc.exited;
  }
}

async function helloLatency(command: string[]): Promise<number> {
  const t = performance.now();
  const agent = new Agent(command);
  await agent.until((m) => m.type === "hello");
  const ms = performance.now() - t;
  await agent.close();
  return ms;
}

/** A fresh agent after its warm-up turn (provider code loaded, JIT started). */
async function warmAgent(command: string[]): Promise<Agent> {
  const agent = new Agent(command);
  await agent.until((m) => m.type === "sync");
  server.enqueue({ steps: [{ text: "warm" }] });
  await agent.turn("warm up");
  return agent;
}

interface TurnSample {
  ms: number;
  cpuMs: number;
  /** The JavaScript thread alone; the rest is the JIT's compiler threads, the GC, the HTTP client. */
  mainCpuMs: number;
  eventsPerSec: number;
  rss: number;
}

async function deltaTurn(command: string[], n: number): Promise<TurnSample> {
  const agent = await warmAgent(command);
  server.enqueue({ steps: [{ text: "x".repeat(n), chunks: n }], usage: { input: 10, output: n } });
  const before = agent.events;
  const turn = await agent.turn("stream");
  const events = agent.events - before;
  const rss = agent.peakRssMb();
  await agent.close();
  return { ...turn, eventsPerSec: events / (turn.ms / 1000), rss };
}

async function toolTurn(command: string[]): Promise<TurnSample> {
  const agent = await warmAgent(command);
  server.enqueue(
    { steps: [{ tool_call: { name: "read", args: { path: "notes.txt" } } }] },
    { steps: [{ text: "The notes say hello.", chunks: 5 }] },
  );
  const turn = await agent.turn("read notes.txt");
  const rss = agent.peakRssMb();
  await agent.close();
  return { ...turn, eventsPerSec: 0, rss };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const range = (xs: number[], digits = 0) =>
  `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;

const hello = new Map<string, number[]>();
const turns = new Map<string, TurnSample[]>();
const take = <T>(map: Map<string, T[]>, key: string, value: T) => {
  const list = map.get(key) ?? [];
  list.push(value);
  map.set(key, list);
};
for (let i = 0; i < runs; i++) {
  for (const build of builds) {
    take(hello, build.name, await helloLatency(build.command));
    for (const n of deltaCounts) take(turns, `${build.name}|${n}`, await deltaTurn(build.command, n));
    take(turns, `${build.name}|tool`, await toolTurn(build.command));
  }
}

console.log(
  `${runs} runs, builds interleaved; medians (min–max); cpu = the agent's CPU time over the turn, all threads`,
);
for (const build of builds) {
  console.log(`\n${build.name}`);
  const h = hello.get(build.name) ?? [];
  console.log(`| spawn → hello | ${median(h).toFixed(0)} ms (${range(h)}) |`);
  for (const n of deltaCounts) {
    const s = turns.get(`${build.name}|${n}`) ?? [];
    const ms = s.map((x) => x.ms);
    const cpu = s.map((x) => x.cpuMs);
    const main = s.map((x) => x.mainCpuMs);
    const eps = median(s.map((x) => x.eventsPerSec));
    const rss = Math.max(...s.map((x) => x.rss));
    console.log(
      `| turn of ${n.toLocaleString("en-US")} text deltas | ${median(ms).toFixed(0)} ms (${range(ms)}), cpu ${median(cpu).toFixed(0)} ms (${range(cpu)}), main thread ${median(main).toFixed(0)} ms (${range(main)}), ${Math.round(eps).toLocaleString("en-US")} events/s, peak RSS ${rss.toFixed(0)} MB |`,
    );
  }
  const tool = turns.get(`${build.name}|tool`) ?? [];
  const ms = tool.map((x) => x.ms);
  const cpu = tool.map((x) => x.cpuMs);
  const main = tool.map((x) => x.mainCpuMs);
  console.log(
    `| tool turn (read → answer, 2 provider calls) | ${median(ms).toFixed(1)} ms (${range(ms, 1)}), cpu ${median(cpu).toFixed(1)} ms (${range(cpu, 1)}), main thread ${median(main).toFixed(1)} ms (${range(main, 1)}) |`,
  );
}

await server.close();
