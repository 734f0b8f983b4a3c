/**
 * Runtime → client latency per event (issue 8): a stand-in runtime stamps every delta with the
 * time it wrote it (bench/support/clock-runtime.ts); the client records when each arrived.
 * Direct on stdio, then through an in-process daemon to 1 and to 20 clients on the unix socket.
 *   bun bench/daemon-latency.ts [--events 2000]
 */
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startDaemon } from "../src/daemon/daemon.ts";
import { JsonlDecoder } from "../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../src/wire/jsonl-encoder.ts";

const events = Number(process.argv[process.argv.indexOf("--events") + 1]) || 2000;
const RUNTIME = [process.execPath, resolve(import.meta.dir, "support/clock-runtime.ts")];
const env = { ...process.env, CLOCK_EVENTS: String(events) };
const now = () => performance.timeOrigin + performance.now();
type Msg = { type: string } & Record<string, unknown>;

/** Collects the latency of every delta and resolves at turn_end. */
function collector(): { receive: (m: Msg) => void; done: Promise<number[]> } {
  const latencies: number[] = [];
  let finish!: (l: number[]) => void;
  const done = new Promise<number[]>((r) => {
    finish = r;
  });
  return {
    receive: (m) => {
      if (m.type === "message_delta") latencies.push(now() - Number(m.text_delta));
      else if (m.type === "turn_end") finish(latencies);
    },
    done,
  };
}

function percentiles(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  return `p50 ${at(0.5).toFixed(2)} ms · p99 ${at(0.99).toFixed(2)} ms · max ${at(1).toFixed(2)} ms (${s.length} events)`;
}

async function direct(): Promise<number[]> {
  const proc = Bun.spawn(RUNTIME, { stdin: "pipe", stdout: "pipe", stderr: "ignore", env });
  const c = collector();
  let ready!: () => void;
  const synced = new Promise<void>((r) => {
    ready = r;
  });
  const decoder = new JsonlDecoder({
    value: (v) => {
      const m = v as Msg;
      if (m.type === "sync") ready();
      c.receive(m);
    },
    error: () => {},
  });
  void (async () => {
    for await (const chunk of proc.stdout) decoder.push(chunk);
  })();
  await synced;
  proc.stdin.write(encodeJsonLine({ type: "prompt", id: "p", message: "go" }));
  proc.stdin.flush();
  const latencies = await c.done;
  proc.stdin.end();
  await proc.exited;
  return latencies;
}

async function throughDaemon(clients: number): Promise<number[]> {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "shard-bench-latency-")));
  const started = await startDaemon({ home, port: 0, env, shardCommand: RUNTIME, idleRuntimeTimeoutMs: 0 });
  if (!started.ok) throw new Error(started.message);
  const peers = await Promise.all(
    Array.from({ length: clients }, async () => {
      const c = collector();
      const responses = new Map<string, (m: Msg) => void>();
      const decoder = new JsonlDecoder({
        value: (v) => {
          const m = v as Msg;
          if (m.type === "response" && typeof m.id === "string") responses.get(m.id)?.(m);
          c.receive(m);
        },
        error: () => {},
      });
      const socket = await Bun.connect({
        unix: join(home, "daemon.sock"),
        socket: { data: (_s, d) => decoder.push(d) },
      });
      let n = 0;
      const request = (m: object) =>
        new Promise<Msg>((r) => {
          const id = `r${++n}`;
          responses.set(id, r);
          socket.write(encodeJsonLine({ ...m, id }));
          socket.flush();
        });
      return { c, request };
    }),
  );
  const [first] = peers;
  if (!first) throw new Error("no clients");
  const created = await first.request({ type: "agent.create", cwd: home });
  const agentId = (created.data as { agent_id: string }).agent_id;
  for (const p of peers) await p.request({ type: "agent.attach", agent_id: agentId, role: "observer" });
  await first.request({ type: "prompt", agent_id: agentId, message: "go" });
  const all = (await Promise.all(peers.map((p) => p.c.done))).flat();
  await started.daemon.stop(true);
  return all;
}

console.log(`| direct on stdio | ${percentiles(await direct())} |`);
console.log(`| through the daemon, 1 client | ${percentiles(await throughDaemon(1))} |`);
console.log(`| through the daemon, 20 clients | ${percentiles(await throughDaemon(20))} |`);
