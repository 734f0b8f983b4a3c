/**
 * Subagent jobs (issue 12) on a `shard daemon` child process and the mock LLM:
 *  - `subagent.create` → its response (it never waits for the child; aim < 20 ms),
 *  - create → the run `active` (child runtime started and took its prompt) → `completed`,
 *  - a parallel batch of 10: wall time to all completed, and daemon + children RSS at the peak.
 *   bun bench/subagents.ts [--creates 20]
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { JsonlDecoder } from "../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../src/wire/jsonl-encoder.ts";
import { startMockLlmServer } from "../test/support/mock-llm/server.ts";
import { benchHome, benchTempDir } from "./support/bench-home.ts";

const creates = Number(process.argv[process.argv.indexOf("--creates") + 1]) || 20;
type Msg = { type: string } & Record<string, unknown>;

const server = await startMockLlmServer({ recordRequests: false });
const home = benchHome(server.url);
const cwd = benchTempDir("cwd");
const MAIN = resolve(import.meta.dir, "../src/cli/main.ts");
// Its own process: the client's clock must not share the daemon's event loop.
const daemon = Bun.spawn([process.execPath, MAIN, "daemon", "--port", "0"], {
  stdin: "ignore",
  stdout: "ignore",
  stderr: "ignore",
  env: { PATH: process.env.PATH ?? "", HOME: home, SHARD_HOME: home },
});
const socketPath = join(home, "daemon.sock");

/** A lean JSONL client (no schema checks: the client is not what is measured). */
const waiters: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
const decoder = new JsonlDecoder({
  value: (v) => {
    const m = v as Msg;
    for (let i = waiters.length - 1; i >= 0; i--) {
      const w = waiters[i];
      if (w?.pred(m)) {
        waiters.splice(i, 1);
        w.resolve(m);
      }
    }
  },
  error: () => {},
});
async function connect() {
  for (;;) {
    try {
      return await Bun.connect({ unix: socketPath, socket: { data: (_s, chunk) => decoder.push(chunk) } });
    } catch {
      await Bun.sleep(5);
    }
  }
}
const socket = await connect();
const waitFor = (pred: (m: Msg) => boolean) => new Promise<Msg>((resolve) => waiters.push({ pred, resolve }));
let nextId = 0;
async function request(command: object): Promise<Msg> {
  const id = `b${++nextId}`;
  const answered = waitFor((m) => m.type === "response" && m.id === id);
  socket.write(encodeJsonLine({ ...command, id }));
  socket.flush();
  const res = await answered;
  if (!res.success) throw new Error(JSON.stringify(res.error));
  return res;
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  return `p50 ${at(0.5).toFixed(1)} ms · p99 ${at(0.99).toFixed(1)} ms · max ${at(1).toFixed(1)} ms (n=${s.length})`;
};

async function rssMb(): Promise<{ daemon: number; children: number; count: number }> {
  const out = await new Response(Bun.spawn(["pgrep", "-f", `agent --cwd ${cwd}`]).stdout).text();
  const pids = out.trim().split("\n").filter(Boolean);
  let children = 0;
  for (const pid of pids) {
    const ps = await new Response(Bun.spawn(["ps", "-o", "rss=", "-p", pid]).stdout).text();
    children += Number(ps.trim()) || 0;
  }
  const status = readFileSync(`/proc/${daemon.pid}/status`, "utf8");
  const daemonKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return { daemon: daemonKb / 1e3, children: children / 1e3, count: pids.length };
}

const parent = (
  await request({
    type: "agent.create",
    cwd,
    model: "mock/chat",
  })
).data as {
  agent_id: string;
};
const parentId = parent.agent_id;
await request({ type: "agent.attach", agent_id: parentId, role: "observer" });

// 1 + 2: single creates, one at a time (each run completes before the next create).
const toResponse: number[] = [];
const toActive: number[] = [];
const toCompleted: number[] = [];
for (let i = 0; i < creates; i++) {
  const t0 = performance.now();
  const res = await request({
    type: "subagent.create",
    parent_agent_id: parentId,
    name: `t${i}`,
    task: `task ${i}`,
  });
  toResponse.push(performance.now() - t0);
  const runId = (res.data as { runs: { run_id: string }[] }).runs[0]?.run_id;
  const state = (s: string) =>
    waitFor((m) => m.type === "subagent_run_changed" && m.run_id === runId && m.state === s);
  await state("active");
  toActive.push(performance.now() - t0);
  const reported = waitFor((m) => m.type === "turn_end" && m.agent_id === parentId);
  await state("completed");
  toCompleted.push(performance.now() - t0);
  // The next create starts on a quiet daemon: the parent's report turn is over.
  await reported;
}
console.log(`subagent.create → response: ${stats(toResponse)}`);
console.log(`create → run active (child started, prompt taken): ${stats(toActive)}`);
console.log(`create → run completed: ${stats(toCompleted)}`);

// 3: ten parallel tasks, as two jobs (8 + 2): the default launch policy allows 8 a job, and a
// client cannot raise it (agent.create refuses launch_policy).
const tasks = Array.from({ length: 10 }, (_, i) => ({ name: `p${i}`, task: `parallel task ${i}` }));
const t0 = performance.now();
const jobIds: string[] = [];
for (const part of [tasks.slice(0, 8), tasks.slice(8)]) {
  const batch = await request({
    type: "subagent.create",
    parent_agent_id: parentId,
    strategy: "parallel",
    tasks: part,
  });
  jobIds.push((batch.data as { job_id: string }).job_id);
}
let peak = { daemon: 0, children: 0, count: 0 };
let settled = false;
const waited = request({ type: "subagent.wait", parent_agent_id: parentId, handles: jobIds }).then(() => {
  settled = true;
});
while (!settled) {
  const now = await rssMb();
  if (now.daemon + now.children > peak.daemon + peak.children) peak = now;
  await Promise.race([waited, Bun.sleep(100)]);
}
const wall = performance.now() - t0;
console.log(
  `parallel batch of 10 (at most 4 at once): ${wall.toFixed(0)} ms wall; peak RSS ${peak.daemon.toFixed(0)} MB daemon + ${peak.children.toFixed(0)} MB in ${peak.count} child runtimes`,
);

await request({ type: "daemon.shutdown", force: true }).catch(() => undefined);
socket.end();
await daemon.exited;
await server.close();
