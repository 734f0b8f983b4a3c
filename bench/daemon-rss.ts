/**
 * Daemon RSS (issue 8 aim: < 60 MB with 20 durable agents whose runtimes are stopped), A/B
 * friendly: each run starts every given build once, in turn, so a busy machine hits them alike.
 * Per build: RSS of a fresh idle daemon, and after 20 agents were created (runtimes started)
 * and terminated; VmRSS split into anonymous and file-backed pages (the binary's mapped code).
 * Usage: bun bench/daemon-rss.ts [--runs 7] [--binary dist/shard]... [--sources]
 */
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { JsonlDecoder } from "../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../src/wire/jsonl-encoder.ts";
import { startMockLlmServer } from "../test/support/mock-llm/server.ts";

const argv = process.argv.slice(2);
const runs = Number(argv[argv.indexOf("--runs") + 1]) || 7;
const MAIN = resolve(import.meta.dir, "../src/cli/main.ts");
const builds: { name: string; command: string[] }[] = [];
argv.forEach((arg, i) => {
  const path = argv[i + 1];
  if (arg === "--binary" && path) builds.push({ name: path, command: [resolve(path)] });
  if (arg === "--sources") builds.push({ name: "sources", command: [process.execPath, MAIN] });
});
if (builds.length === 0) builds.push({ name: "sources", command: [process.execPath, MAIN] });

const server = await startMockLlmServer({ recordRequests: false });
const cwd = realpathSync(mkdtempSync(join(tmpdir(), "shard-bench-cwd-")));

type Msg = { type: string } & Record<string, unknown>;

function freshHome(): string {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "shard-bench-rss-")));
  const model = {
    id: "chat",
    context_window: 1_000_000,
    max_output: 4096,
    reasoning: false,
    cost: { input: 0, output: 0 },
  };
  const providers = {
    mock: { api: "openai-completions", base_url: `${server.url}/v1`, api_key: "bench", models: [model] },
  };
  writeFileSync(join(home, "models.json"), JSON.stringify({ providers }));
  return home;
}

interface Rss {
  total: number;
  anon: number;
  file: number;
}

function rss(pid: number): Rss {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { total: kb("VmRSS"), anon: kb("RssAnon"), file: kb("RssFile") + kb("RssShmem") };
}

/** A lean JSONL client on the unix socket (no schema checks: only the daemon is measured). */
async function connect(path: string) {
  const waiters: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  const decoder = new JsonlDecoder({
    value: (v) => {
      const m = v as Msg;
      for (const [i, w] of waiters.entries()) {
        if (!w.pred(m)) continue;
        waiters.splice(i, 1);
        w.resolve(m);
        return;
      }
    },
    error: () => {},
  });
  const until = (pred: (m: Msg) => boolean) => new Promise<Msg>((r) => waiters.push({ pred, resolve: r }));
  const hello = until((m) => m.type === "hello");
  const socket = await Bun.connect({ unix: path, socket: { data: (_s, chunk) => decoder.push(chunk) } });
  await hello;
  let next = 0;
  const request = async (m: object): Promise<Msg> => {
    const id = `r${++next}`;
    const response = until((r) => r.type === "response" && r.id === id);
    socket.write(encodeJsonLine({ ...m, id }));
    socket.flush();
    const res = await response;
    if (!res.success) throw new Error(JSON.stringify(res.error));
    return res;
  };
  return { until, request, send: (m: object) => socket.write(encodeJsonLine(m)) };
}

async function measure(command: string[]): Promise<{ idle: Rss; stopped: Rss }> {
  const home = freshHome();
  const proc = Bun.spawn([...command, "daemon", "--port", "0", "--idle-runtime-timeout", "0"], {
    stdin: "ignore",
    stdout: "ignore",
    stderr: "ignore",
    env: { ...process.env, SHARD_HOME: home, HOME: home },
  });
  let peer: Awaited<ReturnType<typeof connect>> | undefined;
  while (!peer)
    peer = await connect(join(home, "daemon.sock")).catch(() => Bun.sleep(2).then(() => undefined));
  // The HTTP side loads just after the socket listens; agent.list answers once that settled.
  await Bun.sleep(200);
  await peer.request({ type: "agent.list" });
  const idle = rss(proc.pid);
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) {
    const created = await peer.request({ type: "agent.create", cwd, model: "mock/chat" });
    ids.push((created.data as { agent_id: string }).agent_id);
  }
  for (const id of ids) {
    const stopped = peer.until(
      (m) => m.type === "agent_status_changed" && m.agent_id === id && m.runtime_state === "stopped",
    );
    await peer.request({ type: "agent.terminate", agent_id: id });
    await stopped;
  }
  await peer.request({ type: "agent.list" });
  const stopped = rss(proc.pid);
  peer.send({ type: "daemon.shutdown", id: "stop", force: true });
  await proc.exited;
  return { idle, stopped };
}

const results = new Map(builds.map((b) => [b.name, [] as { idle: Rss; stopped: Rss }[]]));
for (let i = 0; i < runs; i++) {
  for (const build of builds) results.get(build.name)?.push(await measure(build.command));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const mb = (xs: number[]) =>
  `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
console.log(`medians of ${runs} (min–max), MB`);
console.log("| build | idle: VmRSS | anon | file | 20 stopped: VmRSS | anon | file |");
for (const [name, rows] of results) {
  console.log(
    `| ${name} | ${mb(rows.map((r) => r.idle.total))} | ${mb(rows.map((r) => r.idle.anon))} | ${mb(rows.map((r) => r.idle.file))} | ${mb(rows.map((r) => r.stopped.total))} | ${mb(rows.map((r) => r.stopped.anon))} | ${mb(rows.map((r) => r.stopped.file))} |`,
  );
}
await server.close();
