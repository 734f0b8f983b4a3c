/**
 * SDK overhead: `agent.run` on a turn of N text deltas against a raw stdio driver of the same
 * `shard agent` (JSONL decode, wait for `turn_end`, nothing else). The SDK additionally
 * validates every event, folds it into the AgentSnapshot, and tracks the turn.
 * Both after a warm-up turn in the same process; runs alternate; medians.
 * Usage: bun bench/sdk-run.ts [--runs 7] [--deltas 10000]
 */
import { resolve } from "node:path";
import { spawnAgent } from "../sdk/src/direct.ts";
import { JsonlDecoder } from "../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../src/wire/jsonl-encoder.ts";
import { startMockLlmServer } from "../test/support/mock-llm/server.ts";
import { benchHome, benchTempDir } from "./support/bench-home.ts";

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) || fallback : fallback;
};
const runs = arg("--runs", 7);
const deltas = arg("--deltas", 10_000);
const MAIN = resolve(import.meta.dir, "../src/cli/main.ts");
const server = await startMockLlmServer({ recordRequests: false });
const home = benchHome(server.url);
const cwd = benchTempDir("cwd");
const env = { ...process.env, SHARD_HOME: home, HOME: home };
const bigTurn = () =>
  server.enqueue({
    steps: [{ text: "x".repeat(deltas), chunks: deltas }],
    usage: { input: 10, output: deltas },
  });

type Msg = { type: string } & Record<string, unknown>;

async function raw(): Promise<number> {
  const proc = Bun.spawn([process.execPath, MAIN, "agent", "--cwd", cwd, "--model", "mock/chat"], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "ignore",
    env,
  });
  let waiter: { type: string; resolve: () => void } | undefined;
  const decoder = new JsonlDecoder({
    value: (v) => {
      if (waiter && (v as Msg).type === waiter.type) {
        const w = waiter;
        waiter = undefined;
        w.resolve();
      }
    },
    error: () => {},
  });
  void (async () => {
    for await (const chunk of proc.stdout) decoder.push(chunk);
  })();
  const until = (type: string) =>
    new Promise<void>((r) => {
      waiter = { type, resolve: r };
    });
  const send = (m: object) => {
    proc.stdin.write(encodeJsonLine(m));
    proc.stdin.flush();
  };
  await until("sync");
  server.enqueue({ steps: [{ text: "warm" }] });
  send({ type: "prompt", message: "warm up" });
  await until("turn_end");
  bigTurn();
  const t = performance.now();
  send({ type: "prompt", message: "stream" });
  await until("turn_end");
  const ms = performance.now() - t;
  proc.stdin.end();
  await proc.exited;
  return ms;
}

async function sdk(): Promise<number> {
  const agent = await spawnAgent({ cwd, model: "mock/chat", env, command: [process.execPath, MAIN] });
  server.enqueue({ steps: [{ text: "warm" }] });
  await agent.run("warm up");
  bigTurn();
  const t = performance.now();
  const { text } = await agent.run("stream");
  const ms = performance.now() - t;
  if (text.length !== deltas)
    throw new Error(`the SDK's turn text has ${text.length} chars, expected ${deltas}`);
  await agent.close();
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rawMs: number[] = [];
const sdkMs: number[] = [];
for (let i = 0; i < runs; i++) {
  rawMs.push(await raw());
  sdkMs.push(await sdk());
}
const r = median(rawMs);
const s = median(sdkMs);
console.log(
  `| turn of ${deltas.toLocaleString("en-US")} text deltas | raw stdio driver ${r.toFixed(0)} ms | SDK agent.run ${s.toFixed(0)} ms | ${(s / r).toFixed(2)}× (${runs} runs, medians) |`,
);
console.log(
  `raw: ${rawMs.map((x) => x.toFixed(0)).join(", ")}\nsdk: ${sdkMs.map((x) => x.toFixed(0)).join(", ")}`,
);
await server.close();
