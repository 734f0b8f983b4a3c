/**
 * The floors no tool can beat on this machine, measured in the same run:
 *   - a bare `bun -e ''` start (spawn → exit; an empty script seems to end before Bun sets up its
 *     VM), `bun -e "console.log('ready')"` (a Bun process that runs a line), and a one-line
 *     program compiled like build:binary; the resident set of an idle Bun and compiled program;
 *   - the mock server alone streaming N deltas to a plain client (fetch, count SSE deltas);
 *   - plain JSON.parse of the JSONL of an N-delta turn (what a Shard client must at least do).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MockLlmServer } from "../../test/support/mock-llm/types.ts";
import { withDeadline } from "./deadline.ts";
import { LineScanner } from "./lines.ts";
import { TreeMonitor } from "./proc-tree.ts";

/** spawn → exit of a command that must succeed, ms. */
export async function exitMs(cmd: string[], cwd: string): Promise<number> {
  const t = performance.now();
  const proc = Bun.spawn(cmd, { cwd, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  const code = await withDeadline(proc.exited, 10_000, `for ${cmd.join(" ")}`);
  const ms = performance.now() - t;
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited with ${code}`);
  return ms;
}

export const bareBun = () => [process.execPath, "-e", ""];
export const bunEval = () => [process.execPath, "-e", "console.log('ready')"];
export const IDLE_SCRIPT = "console.log('ready'); setInterval(() => {}, 1e6);";

/** A one-line program compiled with build:binary's flags; `idle` keeps it running after its line. */
export async function buildHello(dir: string, idle: boolean): Promise<string> {
  const source = join(dir, idle ? "idle.ts" : "hello.ts");
  const out = join(dir, idle ? "idle" : "hello");
  writeFileSync(source, idle ? `${IDLE_SCRIPT}\n` : "console.log('ready');\n");
  const build = Bun.spawn([process.execPath, "build", source, "--compile", "--bytecode", "--outfile", out], {
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  const [code, stderr] = await Promise.all([build.exited, new Response(build.stderr).text()]);
  if (code !== 0) throw new Error(`bun build --compile failed (${code}): ${stderr}`);
  return out;
}

/** Resident set of a process that printed its first line and then idles, MB. */
export async function idleRssMb(cmd: string[], cwd: string, settleMs: number): Promise<number> {
  const proc = Bun.spawn(cmd, { cwd, stdin: "ignore", stdout: "pipe", stderr: "ignore" });
  try {
    const reader = proc.stdout.getReader();
    await withDeadline(reader.read(), 10_000, `for ${cmd.join(" ")}`);
    await Bun.sleep(settleMs);
    return new TreeMonitor(proc.pid).rssMb();
  } finally {
    proc.kill();
    await proc.exited;
  }
}

const CONTENT_DELTA = Buffer.from('"delta":{"content":"');

/** The mock streaming a reply of `n` one-character deltas to a fetch client; ms to the last byte. */
export async function mockAloneMs(server: MockLlmServer, n: number, marker: string): Promise<number> {
  server.enqueue(floodReply(n, marker));
  let deltas = 0;
  const scanner = new LineScanner((line) => {
    if (line.includes(CONTENT_DELTA)) deltas++;
  });
  const t = performance.now();
  const res = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "chat", stream: true, messages: [{ role: "user", content: marker }] }),
  });
  if (!res.body) throw new Error("mock: no body");
  await withDeadline(
    (async () => {
      for await (const chunk of res.body as ReadableStream<Uint8Array>) scanner.push(chunk);
    })(),
    60_000,
    "for the mock's stream",
  );
  const ms = performance.now() - t;
  if (deltas !== n) throw new Error(`mock alone: ${deltas} of ${n} deltas`);
  return ms;
}

/** JSONL of an N-delta turn as `shard agent` writes it (its message_delta lines, then turn_end). */
export function turnJsonl(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++)
    lines.push(
      JSON.stringify({
        type: "message_delta",
        message_id: "msg_9smawqs0--FelkCek7gQ",
        block_index: 0,
        kind: "text",
        text_delta: "x",
        seq: i + 4,
      }),
    );
  const usage = { input: 10, output: n, cache_read: 0, cache_write: 0, cost: 0, model: "mock/chat" };
  lines.push(JSON.stringify({ type: "turn_end", turn_id: "turn_Mhg6CdUxkTORZpIdQD6x", usage, seq: n + 7 }));
  return `${lines.join("\n")}\n`;
}

/** Split + JSON.parse of every line, ms. */
export function jsonParseMs(jsonl: string): number {
  const t = performance.now();
  let count = 0;
  let start = 0;
  for (;;) {
    const lf = jsonl.indexOf("\n", start);
    if (lf < 0) break;
    if (JSON.parse(jsonl.slice(start, lf))) count++;
    start = lf + 1;
  }
  const ms = performance.now() - t;
  if (count === 0) throw new Error("no lines parsed");
  return ms;
}

/** The scripted reply of an N-delta turn, only for the request that carries `marker`. */
export function floodReply(n: number, marker: string) {
  return { when: marker, steps: [{ text: "x".repeat(n), chunks: n }], usage: { input: 10, output: n } };
}
