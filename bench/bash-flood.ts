/**
 * A command that prints without end: a real `shard agent` runs `yes` in bash with a 10 s
 * timeout. Records the agent's peak RSS (VmHWM), the largest size the agent's temp dir reached
 * (where a spill file of the whole output used to grow), what the client received live and
 * in the tool result, and how long the call took.
 * Usage: bun bench/bash-flood.ts [--seconds 10] [--main path/to/src/cli/main.ts]
 */
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { JsonlDecoder } from "../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../src/wire/jsonl-encoder.ts";
import { startMockLlmServer } from "../test/support/mock-llm/server.ts";
import { benchHome } from "./support/bench-home.ts";

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const seconds = Number(arg("--seconds") ?? 10);
// `--main` measures another checkout (e.g. the code before a change) with the same bench.
const MAIN = resolve(arg("--main") ?? resolve(import.meta.dir, "../src/cli/main.ts"));

const temp = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), `shard-flood-${prefix}-`)));
const server = await startMockLlmServer({ recordRequests: false });
const home = benchHome(server.url);
const cwd = temp("cwd");
const agentTmp = temp("tmp");
type Msg = { type: string } & Record<string, unknown>;
const proc = Bun.spawn([process.execPath, MAIN, "agent", "--cwd", cwd, "--model", "mock/chat"], {
  stdin: "pipe",
  stdout: "pipe",
  stderr: "ignore",
  env: { ...process.env, SHARD_HOME: home, HOME: home, TMPDIR: agentTmp },
});
let liveChars = 0;
let waiter: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void } | undefined;
const decoder = new JsonlDecoder({
  value: (value) => {
    const m = value as Msg;
    if (m.type === "tool_output" && typeof m.text_delta === "string") liveChars += m.text_delta.length;
    if (waiter?.pred(m)) {
      const w = waiter;
      waiter = undefined;
      w.resolve(m);
    }
  },
  error: () => {},
});
void (async () => {
  for await (const chunk of proc.stdout) decoder.push(chunk);
})();
const until = (pred: (m: Msg) => boolean) => new Promise<Msg>((r) => (waiter = { pred, resolve: r }));
const send = (m: object) => {
  proc.stdin.write(encodeJsonLine(m));
  proc.stdin.flush();
};

const dirBytes = (dir: string) =>
  readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
const peakRssMb = () => {
  const status = readFileSync(`/proc/${proc.pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

await until((m) => m.type === "sync");
const idleRss = peakRssMb();
server.enqueue(
  { steps: [{ tool_call: { name: "bash", args: { command: "yes", timeout: seconds } } }] },
  { steps: [{ text: "done" }] },
);
const asked = until((m) => m.type === "permission_request");
send({ type: "prompt", message: "flood" });
const request = await asked;
const resulted = until((m) => m.type === "tool_result");
const started = performance.now();
send({ type: "permission_response", request_id: request.request_id, choice_id: "allow_once" });

let peakTmp = 0;
const sampler = setInterval(() => {
  peakTmp = Math.max(peakTmp, dirBytes(agentTmp));
}, 100);
const result = await resulted;
const callMs = performance.now() - started;
clearInterval(sampler);
peakTmp = Math.max(peakTmp, dirBytes(agentTmp));
const leftTmp = dirBytes(agentTmp);
const rss = peakRssMb();
await until((m) => m.type === "turn_end");
proc.stdin.end();
await proc.exited;
await server.close();
for (const dir of [home, cwd, agentTmp]) rmSync(dir, { recursive: true, force: true });

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const resultChars = JSON.stringify(result.content).length;
console.log(`| \`yes\` for ${seconds} s (bash timeout) | value |`);
console.log("| --- | --- |");
console.log(
  `| agent peak RSS (VmHWM), idle → after the call | ${idleRss.toFixed(0)} → ${rss.toFixed(0)} MB |`,
);
console.log(`| largest size of the agent's TMPDIR during the call | ${mb(peakTmp)} |`);
console.log(`| left in TMPDIR after the call | ${mb(leftTmp)} |`);
console.log(`| live \`tool_output\` received | ${liveChars.toLocaleString("en-US")} chars |`);
console.log(`| tool result | ${resultChars.toLocaleString("en-US")} chars |`);
console.log(`| call duration (permission answered → tool_result) | ${(callMs / 1000).toFixed(1)} s |`);
