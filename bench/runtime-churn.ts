/**
 * Runtime churn (issue 19): a real `shard daemon` creates 200 agents one after another on the
 * local streaming server. `terminate`: each is terminated before the next is created. `keep`:
 * none is terminated, so only the runtime cap (`--max-runtimes`, default 16) stops them.
 * Reported: the daemon's peak RSS (VmHWM), the most runtimes alive at once and the peak of their
 * summed RSS (sampled every 100 ms), and the time. A/B friendly (`--binary A --binary B`).
 * Usage: bun bench/runtime-churn.ts [--agents 200] [--mode terminate|keep] [--binary PATH]... [--sources]
 */
import { startMockLlmServer } from "../test/support/mock-llm/server.ts";
import { benchHome, benchTempDir } from "./support/bench-home.ts";
import { buildsFromArgs } from "./support/builds.ts";
import { children, memory, startDaemon } from "./support/daemon-peer.ts";

const argv = process.argv.slice(2);
const agents = Number(argv[argv.indexOf("--agents") + 1]) || 200;
const mode = argv.includes("--mode") ? argv[argv.indexOf("--mode") + 1] : "terminate";
const builds = buildsFromArgs(argv);
const server = await startMockLlmServer({ recordRequests: false });
const cwd = benchTempDir("cwd");

async function measure(command: string[]) {
  const home = benchHome(server.url);
  const { proc, peer } = await startDaemon(command, home, ["--idle-runtime-timeout", "0"]);
  let liveMax = 0;
  let runtimesRssMax = 0;
  const sampler = setInterval(() => {
    const pids = children(proc.pid);
    liveMax = Math.max(liveMax, pids.length);
    runtimesRssMax = Math.max(
      runtimesRssMax,
      pids.reduce((sum, pid) => sum + memory(pid).rss, 0),
    );
  }, 100);
  const started = performance.now();
  let failed = 0;
  for (let i = 0; i < agents; i++) {
    const created = await peer
      .request({ type: "agent.create", cwd, model: "mock/chat" })
      .catch(() => undefined);
    if (!created) {
      failed += 1;
      continue;
    }
    if (mode !== "terminate") continue;
    const id = (created.data as { agent_id: string }).agent_id;
    const stopped = peer.until(
      (m) => m.type === "agent_status_changed" && m.agent_id === id && m.runtime_state === "stopped",
    );
    await peer.request({ type: "agent.terminate", agent_id: id });
    await stopped;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const daemon = memory(proc.pid);
  peer.send({ type: "daemon.shutdown", id: "stop", force: true });
  await proc.exited;
  return { daemonPeak: daemon.peak, daemonEnd: daemon.rss, liveMax, runtimesRssMax, seconds, failed };
}

console.log(`${agents} agents, mode ${mode}`);
console.log(
  "| build | daemon VmHWM | daemon RSS at the end | runtimes alive at most | their RSS at most | time | failed creates |",
);
for (const build of builds) {
  const r = await measure(build.command);
  console.log(
    `| ${build.name} | ${r.daemonPeak.toFixed(0)} MB | ${r.daemonEnd.toFixed(0)} MB | ${r.liveMax} | ${r.runtimesRssMax.toFixed(0)} MB | ${r.seconds.toFixed(1)} s | ${r.failed} |`,
  );
}
await server.close();
