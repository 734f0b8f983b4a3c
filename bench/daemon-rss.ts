/**
 * Daemon RSS (issue 8 aim: < 60 MB with 20 durable agents whose runtimes are stopped), A/B
 * friendly: each run starts every given build once, in turn, so a busy machine hits them alike.
 * Per build: RSS of a fresh idle daemon, and after 20 agents were created (runtimes started)
 * and terminated (`--agents` changes the count; with `--messages N` each adopts a session of N
 * messages first), at once and settled (10 s later: the garbage of the runtimes' streams has
 * been collected by then, as it is in a daemon that sits idle); VmRSS split into anonymous and file-backed pages (the binary's mapped code).
 * Usage: bun bench/daemon-rss.ts [--runs 7] [--agents 20] [--messages 0] [--binary dist/shard]... [--sources]
 */
import { readFileSync } from "node:fs";
import { createSession } from "../src/session/create-session.ts";
import { startMockLlmServer } from "../test/support/mock-llm/server.ts";
import { benchHome, benchTempDir } from "./support/bench-home.ts";
import { buildsFromArgs } from "./support/builds.ts";
import { startDaemon } from "./support/daemon-peer.ts";

const argv = process.argv.slice(2);
const runs = Number(argv[argv.indexOf("--runs") + 1]) || 7;
const agents = Number(argv[argv.indexOf("--agents") + 1]) || 20;
/** Each agent adopts a session of this many messages (0: a fresh agent without a session). */
const messages = Number(argv[argv.indexOf("--messages") + 1]) || 0;
const builds = buildsFromArgs(argv);

const server = await startMockLlmServer({ recordRequests: false });
const cwd = benchTempDir("cwd");

/** A session of `count` alternating user and assistant messages; its id. */
function writeSession(home: string, count: number): string {
  const store = createSession({ home, cwd });
  for (let i = 0; i < count; i++) {
    const role = i % 2 === 0 ? "user" : "assistant";
    const text = `${role === "user" ? "question" : "answer"} ${i} `.repeat(role === "user" ? 8 : 20);
    store.append({ type: "message", message: { id: `msg_${i}`, role, content: [{ type: "text", text }] } });
  }
  const id = store.sessionId;
  store.close();
  return id;
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

const SETTLE_MS = 10_000;

async function measure(command: string[]): Promise<{ idle: Rss; stopped: Rss; settled: Rss }> {
  const home = benchHome(server.url);
  const { proc, peer } = await startDaemon(command, home, ["--idle-runtime-timeout", "0"]);
  const idle = rss(proc.pid);
  const ids: string[] = [];
  for (let i = 0; i < agents; i++) {
    const session = messages > 0 ? { session_id: writeSession(home, messages) } : { model: "mock/chat" };
    const created = await peer.request({ type: "agent.create", cwd, ...session });
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
  await Bun.sleep(SETTLE_MS);
  await peer.request({ type: "agent.list" });
  const settled = rss(proc.pid);
  peer.send({ type: "daemon.shutdown", id: "stop", force: true });
  await proc.exited;
  return { idle, stopped, settled };
}

const results = new Map(builds.map((b) => [b.name, [] as Awaited<ReturnType<typeof measure>>[]]));
for (let i = 0; i < runs; i++) {
  for (const build of builds) results.get(build.name)?.push(await measure(build.command));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const mb = (xs: number[]) =>
  `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
console.log(`medians of ${runs} (min–max), MB`);
console.log(
  `| build | idle: VmRSS | anon | file | ${agents} stopped: at once | settled: VmRSS | anon | file |`,
);
for (const [name, rows] of results) {
  const col = (pick: (r: (typeof rows)[number]) => number) => mb(rows.map(pick));
  console.log(
    `| ${name} | ${col((r) => r.idle.total)} | ${col((r) => r.idle.anon)} | ${col((r) => r.idle.file)} | ${col((r) => r.stopped.total)} | ${col((r) => r.settled.total)} | ${col((r) => r.settled.anon)} | ${col((r) => r.settled.file)} |`,
  );
}
await server.close();
