/**
 * Agent runtime benchmarks against the local streaming server (same process model as the
 * peers: a real `shard agent` child on stdio):
 *   - spawn → hello latency
 *   - a turn of N text deltas (time, events/s), for N = 1k, 10k, 20k (cost must be linear)
 *   - a tool turn (read → answer)
 *   - peak RSS of the agent (VmHWM)
 * Usage: bun bench/agent.ts [--runs 5] [--binary dist/shard]
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { JsonlDecoder } from "../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../src/wire/jsonl-encoder.ts";
import { startMockLlmServer } from "../test/support/mock-llm/server.ts";
import { benchHome, benchTempDir } from "./support/bench-home.ts";

const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 5;
const MAIN = resolve(import.meta.dir, "../src/cli/main.ts");
// `--binary dist/shard` measures the compiled binary (`bun run build`) instead of the sources.
const binaryAt = process.argv.indexOf("--binary");
const AGENT_CMD =
  binaryAt > 0 ? [resolve(process.argv[binaryAt + 1] ?? "dist/shard")] : [process.execPath, MAIN];
const server = await startMockLlmServer({ recordRequests: false });

const home = benchHome(server.url);
const cwd = benchTempDir("cwd");
writeFileSync(join(cwd, "notes.txt"), "hello from the benchmark\n".repeat(50));

type Msg = { type: string } & Record<string, unknown>;

class Agent {
  readonly proc = Bun.spawn([...AGENT_CMD, "agent", "--cwd", cwd, "--model", "mock/chat"], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "ignore",
    env: { ...process.env, SHARD_HOME: home, HOME: home },
  });
  events = 0;
  private waiter: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void } | undefined;

  constructor() {
    const decoder = new JsonlDecoder({ value: (v) => this.receive(v as Msg), error: () => {} });
    void (async () => {
      for await (const chunk of this.proc.stdout) decoder.push(chunk);
    })();
  }

  private receive(m: Msg): void {
    this.events++;
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

  peakRssMb(): number {
    const status = require("node:fs").readFileSync(`/proc/${this.proc.pid}/status`, "utf8") as string;
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  }

  async close(): Promise<void> {
    this.proc.stdin.end();
    await this.proc.exited;
  }
}

async function helloLatency(): Promise<number> {
  const t = performance.now();
  const agent = new Agent();
  await agent.until((m) => m.type === "hello");
  const ms = performance.now() - t;
  await agent.close();
  return ms;
}

async function deltaTurn(n: number): Promise<{ ms: number; eventsPerSec: number; rss: number }> {
  const agent = new Agent();
  await agent.until((m) => m.type === "sync");
  // Warm-up turn: provider SDK import, JIT.
  server.enqueue({ steps: [{ text: "warm" }] });
  agent.send({ type: "prompt", message: "warm up" });
  await agent.until((m) => m.type === "turn_end");
  server.enqueue({ steps: [{ text: "x".repeat(n), chunks: n }], usage: { input: 10, output: n } });
  const before = agent.events;
  const t = performance.now();
  agent.send({ type: "prompt", message: "stream" });
  await agent.until((m) => m.type === "turn_end");
  const ms = performance.now() - t;
  const events = agent.events - before;
  const rss = agent.peakRssMb();
  await agent.close();
  return { ms, eventsPerSec: events / (ms / 1000), rss };
}

async function toolTurn(): Promise<number> {
  const agent = new Agent();
  await agent.until((m) => m.type === "sync");
  server.enqueue({ steps: [{ text: "warm" }] });
  agent.send({ type: "prompt", message: "warm up" });
  await agent.until((m) => m.type === "turn_end");
  server.enqueue(
    { steps: [{ tool_call: { name: "read", args: { path: "notes.txt" } } }] },
    { steps: [{ text: "The notes say hello.", chunks: 5 }] },
  );
  const t = performance.now();
  agent.send({ type: "prompt", message: "read notes.txt" });
  await agent.until((m) => m.type === "turn_end");
  const ms = performance.now() - t;
  await agent.close();
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const hello: number[] = [];
for (let i = 0; i < runs; i++) hello.push(await helloLatency());
console.log(
  `| spawn → hello | median ${median(hello).toFixed(0)} ms (min ${Math.min(...hello).toFixed(0)}, ${runs} runs) |`,
);

for (const n of [1_000, 10_000, 20_000]) {
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await deltaTurn(n));
  const ms = median(results.map((r) => r.ms));
  const eps = median(results.map((r) => r.eventsPerSec));
  const rss = Math.max(...results.map((r) => r.rss));
  console.log(
    `| turn of ${n.toLocaleString("en-US")} text deltas | median ${ms.toFixed(0)} ms, ${Math.round(eps).toLocaleString("en-US")} events/s, peak RSS ${rss.toFixed(0)} MB |`,
  );
}

const tools: number[] = [];
for (let i = 0; i < runs; i++) tools.push(await toolTurn());
console.log(`| tool turn (read → answer, 2 provider calls) | median ${median(tools).toFixed(0)} ms |`);

await server.close();
