/**
 * Placements benchmark (issue 27, docs/placements.md): the same N-delta turn through the daemon
 * with the runtime on this machine (`local`) and through an `ssh` placement on loopback (a
 * private sshd, test/placements/support/sshd.ts; the far side runs this checkout under bun),
 * alternating local and ssh within each run; the client is on the daemon's unix socket and the
 * turn is timed from the prompt to its `turn_end`. Medians, and the median of per-run ratios.
 * Usage: bun bench/placements.ts [--runs 7] [--deltas 10000]
 */
import { join } from "node:path";
import type { DaemonClient } from "../test/daemon/support/daemon-client.ts";
import { DaemonHarness } from "../test/daemon/support/daemon-harness.ts";
import { remoteShard, writePlacements } from "../test/placements/support/remote-shard.ts";
import { hasSshd, startSshd } from "../test/placements/support/sshd.ts";
import { startMockLlmServer } from "../test/support/mock-llm/server.ts";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const at = argv.indexOf(name);
  return at >= 0 ? Number(argv[at + 1]) || fallback : fallback;
};
const runs = flag("--runs", 7);
const deltas = flag("--deltas", 10_000);
if (!hasSshd) throw new Error("bench/placements needs /usr/sbin/sshd (apt-get install openssh-server)");

const server = await startMockLlmServer({ recordRequests: false });
const sshd = await startSshd();
const remote = remoteShard(server.url);
const harness = await DaemonHarness.start(server.url, { startTimeoutMs: 120_000 });
writePlacements(harness.home, {
  box: {
    kind: "ssh",
    host: "127.0.0.1",
    port: sshd.port,
    user: sshd.user,
    ssh_config: sshd.config,
    shard: remote.shard,
  },
});
const client = await harness.unixClient();

async function agentOn(placement: string): Promise<string> {
  const cwd = placement === "local" ? harness.cwd : remote.cwd;
  const id = `create-${placement}`;
  client.send({ type: "agent.create", id, cwd, model: "mock/chat", placement });
  const res = await client.waitFor((m) => m.type === "response" && m.id === id, 0, 120_000);
  if (!res.success) throw new Error(JSON.stringify(res.error));
  const agentId = String(res.data.agent_id);
  await client.ok({ type: "agent.attach", agent_id: agentId });
  await turn(agentId, 1_000); // warm-up: the provider SDK and the turn machinery load
  return agentId;
}

let sent = 0;
async function turn(agentId: string, n: number): Promise<number> {
  server.enqueue({ steps: [{ text: "x".repeat(n), chunks: n }], usage: { input: 10, output: n } });
  const from = client.messages.length;
  sent += 1;
  const started = performance.now();
  client.send({ type: "prompt", id: `p${sent}`, agent_id: agentId, message: "go" });
  await waitTurnEnd(client, agentId, from);
  const ms = performance.now() - started;
  const got = client.agentEvents(agentId, from).filter((m) => m.type === "message_delta").length;
  if (got !== n) throw new Error(`${got} of ${n} deltas arrived`);
  client.messages.length = 0; // bounded memory across runs
  return ms;
}

function waitTurnEnd(c: DaemonClient, agentId: string, from: number) {
  return c.waitFor((m) => m.type === "turn_end" && m.agent_id === agentId, from, 120_000);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

const local = await agentOn("local");
const ssh = await agentOn("box");
const times = { local: [] as number[], ssh: [] as number[], ratio: [] as number[] };
for (let run = 0; run < runs; run++) {
  const l = await turn(local, deltas);
  const s = await turn(ssh, deltas);
  times.local.push(l);
  times.ssh.push(s);
  times.ratio.push(s / l);
  console.error(`run ${run + 1}: local ${l.toFixed(0)} ms, ssh ${s.toFixed(0)} ms`);
}
console.log(
  `| ${deltas.toLocaleString("en-US")}-delta turn through the daemon | local ${median(times.local).toFixed(0)} ms · ssh placement on loopback ${median(times.ssh).toFixed(0)} ms | ${(median(times.ssh) / median(times.local)).toFixed(2)}× (median of per-run ratios ${median(times.ratio).toFixed(2)}×) |`,
);
console.error(`home: ${join(harness.home)}`);
await harness.stop();
await sshd.stop();
await server.close();
