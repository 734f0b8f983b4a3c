/**
 * The daemon's path for a runtime's output, in-process (issue 18 F): one N-delta turn as our
 * runtime encodes it, cut into chunks of the size the daemon reads (~220 KB at 10,000 deltas),
 * through `JsonlDecoder`, the delta fast path and runs, `AgentChannel` and one socket client's
 * `OutboundBuffer`, the way RuntimeProcess and the broker wire them. CPU per pass, in a fresh
 * process (the first passes include the JIT compiling the path), so it is less at the mercy of
 * a shared machine than the multi-process bench/daemon.ts.
 * Usage: bun bench/daemon-delta-path.ts [--passes 20] [--deltas 10000] [--chunk 220000] [--one-line]
 * `--one-line` leaves the runs out (every delta takes the one-line fast path), for an A/B.
 */
import { AgentChannel } from "../src/daemon/broker/agent-channel.ts";
import { RequestArbiter } from "../src/daemon/broker/request-arbiter.ts";
import { deltaLineSeqAt } from "../src/wire/delta-line.ts";
import { JsonlDecoder } from "../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../src/wire/jsonl-encoder.ts";
import { asAgentEvent } from "../src/wire/validate.ts";
import { outboundClient } from "../test/daemon/support/outbound-client.ts";

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = argv.indexOf(name);
  return at >= 0 ? Number(argv[at + 1]) : fallback;
};
const passes = option("--passes", 20);
const deltas = option("--deltas", 10_000);
const chunkBytes = option("--chunk", 220_000);
const runs = !argv.includes("--one-line");

/** The runtime's output for one streamed turn, as its encoder writes it (`seq` last). */
function turnOutput(): Buffer {
  const id = "msg_8uTWtorGNd2uLq7R3z4M";
  const events: object[] = [
    { type: "status", status: "streaming" },
    { type: "turn_start", turn_id: "turn_IkmssR42E_qmhaLscfsy" },
  ];
  for (let i = 0; i < deltas; i++)
    events.push({ type: "message_delta", message_id: id, block_index: 0, kind: "text", text_delta: "x" });
  events.push(
    {
      type: "message_complete",
      message_id: id,
      message: { id, role: "assistant", content: [{ type: "text", text: "x".repeat(deltas) }] },
    },
    { type: "turn_end", turn_id: "turn_IkmssR42E_qmhaLscfsy", end_reason: "completed" },
    { type: "status", status: "idle" },
  );
  return Buffer.from(events.map((event, i) => encodeJsonLine({ ...event, seq: i + 1 })).join(""));
}

const output = turnOutput();
const chunks: Uint8Array[] = [];
for (let at = 0; at < output.length; at += chunkBytes) chunks.push(output.subarray(at, at + chunkBytes));

let written = 0;
function pass(): void {
  const channel = new AgentChannel(
    "agent_abcdefghijklmnop",
    new RequestArbiter({
      policy: () => "deny",
      timeoutMs: 1000,
      answerHeadless: () => {},
      timedOut: () => {},
    }),
  );
  channel.replaceFromRuntime(0, {
    ok: true,
    hello: { type: "hello", protocol_version: "0.1.0", server_version: "0.1.0", capabilities: [] },
    sync: {
      type: "sync",
      status: "idle",
      mode: "build",
      live_window: { messages: [] },
      pending_requests: [],
    },
  });
  channel.activity = { phase: "streaming" };
  const { client } = outboundClient("c1", (bytes) => {
    written += bytes.length;
    return bytes.length;
  });
  channel.attachments.set(client.id, { client, role: "interactive", answers: new Set() });
  const decoder = new JsonlDecoder({
    value: (value, line) => {
      const event = asAgentEvent(value);
      if (event && event.type !== "hello" && event.type !== "sync") channel.forward(event, line);
    },
    error: () => {},
    text: (line, ascii) => {
      const seqAt = deltaLineSeqAt(line);
      if (seqAt !== -1) channel.forwardDelta(line, seqAt, ascii);
      return seqAt !== -1;
    },
    ...(runs ? { run: (text, from, bytes) => channel.forwardDeltaRun(text, from, bytes, false) } : {}),
  });
  for (const chunk of chunks) {
    decoder.push(chunk);
    channel.flushRun();
  }
}

const times: number[] = [];
const faults: number[] = [];
for (let i = 0; i < passes; i++) {
  const faultsBefore = process.resourceUsage().minorPageFault;
  const before = process.cpuUsage();
  pass();
  // The outbound buffer writes at the end of the task.
  await Promise.resolve();
  const used = process.cpuUsage(before);
  times.push((used.user + used.system) / 1000);
  faults.push(process.resourceUsage().minorPageFault - faultsBefore);
}
const sortedFaults = [...faults].sort((a, b) => a - b);
const sorted = [...times].sort((a, b) => a - b);
const ms = (x: number | undefined) => `${(x ?? 0).toFixed(1)} ms`;
console.log(
  `| ${deltas.toLocaleString("en-US")} deltas, ${chunks.length} chunks${runs ? "" : ", one-line path"} | first pass ${ms(times[0])} · second ${ms(times[1])} · median ${ms(sorted[Math.floor(passes / 2)])} · best ${ms(sorted[0])} | ${(written / passes / 1e6).toFixed(2)} MB written per pass | page faults per pass: median ${sortedFaults[Math.floor(passes / 2)]} |`,
);
