/**
 * Inbound flood (issue 19): one unix-socket client sends `--held` agent.create commands (each
 * runtime takes a few hundred ms to start: together they hold the connection's queue for
 * seconds) and then `--frames` commands of `--mib` MiB each (agent.status with a padding field),
 * as fast as the socket takes them.
 * Reported: the daemon's RSS before, its peak (VmHWM) and the time until the last answer.
 * The WebSocket shares the queue (src/daemon/inbound-queue.ts) but needs browser auth, so the
 * bench uses the socket. A/B friendly (`--binary A --binary B`).
 * Usage: bun bench/inbound-flood.ts [--frames 60] [--mib 15] [--held 10] [--binary PATH]... [--sources]
 */
import { encodeJsonLine } from "../src/wire/jsonl-encoder.ts";
import { startMockLlmServer } from "../test/support/mock-llm/server.ts";
import { benchHome, benchTempDir } from "./support/bench-home.ts";
import { buildsFromArgs } from "./support/builds.ts";
import { memory, startDaemon } from "./support/daemon-peer.ts";

const argv = process.argv.slice(2);
const frames = Number(argv[argv.indexOf("--frames") + 1]) || 60;
const mib = Number(argv[argv.indexOf("--mib") + 1]) || 15;
const held = Number(argv[argv.indexOf("--held") + 1]) || 10;
const builds = buildsFromArgs(argv);
const server = await startMockLlmServer({ recordRequests: false });
const cwd = benchTempDir("cwd");
const padding = "x".repeat(mib * 1024 * 1024 - 100);

async function measure(command: string[]) {
  const home = benchHome(server.url);
  const { proc, peer } = await startDaemon(command, home);
  const before = memory(proc.pid).rss;
  const started = performance.now();
  const last = peer.until((m) => m.type === "response" && m.id === `flood-${frames - 1}`);
  for (let i = 0; i < held; i++)
    peer.send({ type: "agent.create", id: `held-${i}`, cwd, model: "mock/chat" });
  for (let i = 0; i < frames; i++)
    await peer.write(encodeJsonLine({ type: "agent.status", id: `flood-${i}`, padding }));
  await last;
  const seconds = (performance.now() - started) / 1000;
  const { peak } = memory(proc.pid);
  peer.send({ type: "daemon.shutdown", id: "stop", force: true });
  await proc.exited;
  return { before, peak, seconds };
}

console.log(`${frames} commands of ${mib} MiB behind ${held} agent.create, unix socket`);
console.log("| build | daemon RSS before | daemon VmHWM | time to the last answer |");
for (const build of builds) {
  const r = await measure(build.command);
  console.log(
    `| ${build.name} | ${r.before.toFixed(0)} MB | ${r.peak.toFixed(0)} MB | ${r.seconds.toFixed(1)} s |`,
  );
}
await server.close();
