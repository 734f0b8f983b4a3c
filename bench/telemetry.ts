/**
 * What OpenTelemetry export costs (docs/telemetry.md): a real `shard agent` with export off (no
 * OTEL_* variables) and on (OTLP http/protobuf to a local sink that answers 200), interleaved
 * (off, on, off, on …):
 *   - spawn → sync (the SDK is imported before the runtime is built, only when on)
 *     (wall time, and the agent's CPU time up to then, all threads)
 *   - turns of N and N/10 text deltas: time at the client and the agent's CPU time, all threads;
 *     the per-delta cost is the CPU slope between the two (nothing per delta is instrumented; a
 *     turn adds one turn span and one provider-call span)
 *   - stdin EOF → exit (on: the final flush of spans and metrics)
 * CPU time moves much less than wall time when other work shares the cores.
 * Usage: bun bench/telemetry.ts [--runs 7] [--deltas 20000] [--protocol http/protobuf|http/json]
 */
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { isRecord } from "../src/support/is-record.ts";
import { JsonlDecoder } from "../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../src/wire/jsonl-encoder.ts";
import { startMockLlmServer } from "../test/support/mock-llm/server.ts";
import { benchHome, benchTempDir } from "./support/bench-home.ts";

const argv = process.argv.slice(2);
const arg = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const runs = Number(arg("--runs")) || 7;
const deltas = Number(arg("--deltas")) || 20_000;
const protocol = arg("--protocol") ?? "http/protobuf";
const MAIN = resolve(import.meta.dir, "../src/cli/main.ts");

const llm = await startMockLlmServer({ recordRequests: false });
let exported = 0;
const sink = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    exported += (await request.arrayBuffer()).byteLength;
    return new Response(new Uint8Array(), { headers: { "content-type": "application/x-protobuf" } });
  },
});
const home = benchHome(llm.url);
const cwd = benchTempDir("cwd");

type Msg = { type: string };
const SETTINGS = {
  off: {},
  on: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sink.port}`, OTEL_EXPORTER_OTLP_PROTOCOL: protocol },
} as const;
type Setting = keyof typeof SETTINGS;

class Agent {
  readonly proc: Bun.Subprocess<"pipe", "pipe", "ignore">;
  private waiter: { type: string; resolve: () => void } | undefined;
  events = 0;

  constructor(setting: Setting) {
    // The caller's OTEL_* variables must not turn "off" on.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("OTEL_")));
    this.proc = Bun.spawn([process.execPath, MAIN, "agent", "--cwd", cwd, "--model", "mock/chat"], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "ignore",
      env: { ...env, SHARD_HOME: home, HOME: home, ...SETTINGS[setting] },
    });
    const decoder = new JsonlDecoder({
      value: (v) => {
        this.events++;
        const type = isRecord(v) && typeof v.type === "string" ? v.type : "";
        if (this.waiter?.type === type) {
          const w = this.waiter;
          this.waiter = undefined;
          w.resolve();
        }
      },
      error: () => {},
    });
    const out = this.proc.stdout;
    void (async () => {
      for await (const chunk of out) decoder.push(chunk);
    })();
  }

  until(type: Msg["type"]): Promise<void> {
    return new Promise((r) => {
      this.waiter = { type, resolve: r };
    });
  }

  send(m: object): void {
    this.proc.stdin.write(encodeJsonLine(m));
    this.proc.stdin.flush();
  }

  cpuMs(): number {
    let ms = 0;
    for (const tid of readdirSync(`/proc/${this.proc.pid}/task`)) {
      try {
        ms +=
          Number(readFileSync(`/proc/${this.proc.pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
      } catch {
        // a thread that ended
      }
    }
    return ms;
  }

  /** The JavaScript thread alone (its tid is the pid); the rest is the JIT's and GC's threads. */
  mainCpuMs(): number {
    try {
      return (
        Number(readFileSync(`/proc/${this.proc.pid}/task/${this.proc.pid}/schedstat`, "utf8").split(" ")[0]) /
        1e6
      );
    } catch {
      return 0;
    }
  }

  async turn(message: string): Promise<{ ms: number; cpuMs: number; mainCpuMs: number }> {
    const end = this.until("turn_end");
    const cpu = this.cpuMs();
    const main = this.mainCpuMs();
    const t = performance.now();
    this.send({ type: "prompt", message });
    await end;
    return { ms: performance.now() - t, cpuMs: this.cpuMs() - cpu, mainCpuMs: this.mainCpuMs() - main };
  }

  async close(): Promise<number> {
    const t = performance.now();
    this.proc.stdin.end();
    await this.proc.exited;
    return performance.now() - t;
  }
}

interface Sample {
  startMs: number;
  startCpuMs: number;
  turnMs: number;
  turnCpuMs: number;
  smallTurnCpuMs: number;
  mainPerDeltaUs: number;
  exitMs: number;
}

async function sample(setting: Setting): Promise<Sample> {
  const t = performance.now();
  const agent = new Agent(setting);
  await agent.until("sync");
  const startMs = performance.now() - t;
  const startCpuMs = agent.cpuMs();
  llm.enqueue({ steps: [{ text: "warm" }] });
  await agent.turn("warm up");
  const small = Math.round(deltas / 10);
  llm.enqueue({ steps: [{ text: "x".repeat(small), chunks: small }], usage: { input: 10, output: small } });
  const smallTurn = await agent.turn("stream a little");
  llm.enqueue({
    steps: [{ text: "x".repeat(deltas), chunks: deltas }],
    usage: { input: 10, output: deltas },
  });
  const turn = await agent.turn("stream");
  const exitMs = await agent.close();
  const mainPerDeltaUs = ((turn.mainCpuMs - smallTurn.mainCpuMs) * 1000) / (deltas - small);
  return {
    startMs,
    startCpuMs,
    turnMs: turn.ms,
    turnCpuMs: turn.cpuMs,
    smallTurnCpuMs: smallTurn.cpuMs,
    mainPerDeltaUs,
    exitMs,
  };
}

const samples: Record<Setting, Sample[]> = { off: [], on: [] };
for (let i = 0; i < runs; i++)
  for (const setting of ["off", "on"] as const) samples[setting].push(await sample(setting));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const cell = (xs: number[]) =>
  `${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
console.log(
  `${runs} runs, off/on interleaved, ${deltas} deltas per turn, on = OTLP ${protocol}; medians (min–max)`,
);
console.log(
  "| export | spawn → sync | agent CPU to sync | turn of deltas | agent CPU over the turn | CPU per delta | JS thread per delta | stdin EOF → exit |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
const small = Math.round(deltas / 10);
for (const setting of ["off", "on"] as const) {
  const s = samples[setting];
  // The slope between the two turn sizes: what one more delta costs, whatever a turn costs once.
  const perDelta = s.map((x) => ((x.turnCpuMs - x.smallTurnCpuMs) * 1000) / (deltas - small));
  console.log(
    `| ${setting} | ${cell(s.map((x) => x.startMs))} | ${cell(s.map((x) => x.startCpuMs))} | ${cell(s.map((x) => x.turnMs))} | ${cell(s.map((x) => x.turnCpuMs))} | ${median(perDelta).toFixed(1)} µs (${Math.min(...perDelta).toFixed(1)}–${Math.max(...perDelta).toFixed(1)}) | ${median(s.map((x) => x.mainPerDeltaUs)).toFixed(1)} µs | ${cell(s.map((x) => x.exitMs))} |`,
  );
}
console.log(`bytes exported (on): ${exported}`);
sink.stop(true);
await llm.close();
