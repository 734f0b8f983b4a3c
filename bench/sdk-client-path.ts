/**
 * The SDK's own cost per turn, without the agent process: the bytes of a recorded-shape turn of
 * N text deltas (turn_start, N message_delta, message_complete, usage, turn_end, status) fed
 * in 64 KiB chunks to (a) the raw driver's path — JSONL decode, look for turn_end — and (b)
 * the SDK's path — decode, validate, AgentSnapshot reducer, turn tracking, `run` resolving.
 * Usage: bun bench/sdk-client-path.ts [--runs 9] [--deltas 10000]
 */
import { Agent } from "../sdk/src/agent.ts";
import type { AgentLink } from "../sdk/src/agent-link.ts";
import { Connection } from "../sdk/src/connection.ts";
import type { ChannelSink } from "../src/client/channel-transport.ts";
import { emptySnapshot, syncFromSnapshot } from "../src/snapshot/agent-snapshot.ts";
import { JsonlDecoder } from "../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../src/wire/jsonl-encoder.ts";

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) || fallback : fallback;
};
const runs = arg("--runs", 9);
const deltas = arg("--deltas", 10_000);

function turnBytes(): Uint8Array {
  let seq = 0;
  const lines: string[] = [
    encodeJsonLine({ type: "response", id: "sdk1-1", command: "prompt", success: true }),
  ];
  const ev = (e: object) => lines.push(encodeJsonLine({ ...e, seq: ++seq }));
  ev({ type: "turn_start", turn_id: "turn_1" });
  ev({ type: "status", status: "streaming" });
  ev({
    type: "message_complete",
    message_id: "msg_u",
    message: { id: "msg_u", role: "user", content: [{ type: "text", text: "stream" }] },
  });
  for (let i = 0; i < deltas; i++)
    ev({ type: "message_delta", message_id: "msg_a", block_index: 0, kind: "text", text_delta: "x" });
  ev({
    type: "message_complete",
    message_id: "msg_a",
    message: { id: "msg_a", role: "assistant", content: [{ type: "text", text: "x".repeat(deltas) }] },
  });
  ev({ type: "usage", input: 10, output: deltas });
  ev({ type: "turn_end", turn_id: "turn_1", usage: { input: 10, output: deltas } });
  ev({ type: "status", status: "idle" });
  return new TextEncoder().encode(lines.join(""));
}

const bytes = turnBytes();
const chunks: Uint8Array[] = [];
for (let i = 0; i < bytes.length; i += 65536) chunks.push(bytes.subarray(i, i + 65536));

function rawPath(): number {
  let ended = false;
  const decoder = new JsonlDecoder({
    value: (v) => {
      if ((v as { type: string }).type === "turn_end") ended = true;
    },
    error: () => {},
  });
  const t = performance.now();
  for (const c of chunks) decoder.push(c);
  if (!ended) throw new Error("no turn_end");
  return performance.now() - t;
}

async function sdkPath(): Promise<number> {
  let agent!: Agent;
  let promptId = "";
  let sink: ChannelSink | undefined;
  const connection = new Connection(
    {
      connect: async (to) => {
        sink = to;
        return {
          ok: true,
          transport: {
            send: (m) => {
              if ("id" in m && typeof m.id === "string") promptId = m.id;
            },
            close: () => {},
          },
        };
      },
    },
    { agentEvent: (e) => agent.receive(e) },
  );
  await connection.open();
  const decoder = new JsonlDecoder({ value: (v) => sink?.message(v), error: () => {} });
  const link: AgentLink = {
    agentId: undefined,
    answers: true,
    unhandled: "deny",
    request: (command, options) => connection.request(command, options),
    send: () => {},
    close: async () => {},
    resync: () => {},
  };
  agent = new Agent(link);
  agent.receive({ ...syncFromSnapshot(emptySnapshot()), seq: 0 });
  const t = performance.now();
  const done = agent.run("stream");
  decoder.push(
    new TextEncoder().encode(
      encodeJsonLine({ type: "response", id: promptId, command: "prompt", success: true }),
    ),
  );
  for (const c of chunks) decoder.push(c);
  const { text } = await done;
  const ms = performance.now() - t;
  if (text.length !== deltas) throw new Error(`turn text ${text.length}`);
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const raw: number[] = [];
const sdk: number[] = [];
for (let i = 0; i < runs + 2; i++) {
  raw.push(rawPath());
  sdk.push(await sdkPath());
}
// The first two of each are warm-up (JIT, first compiled validators).
const r = median(raw.slice(2));
const s = median(sdk.slice(2));
console.log(
  `| client path, turn of ${deltas.toLocaleString("en-US")} deltas (${(bytes.length / 1e6).toFixed(1)} MB) | raw decode ${r.toFixed(1)} ms | SDK ${s.toFixed(1)} ms | +${(s - r).toFixed(1)} ms (${runs} runs, medians) |`,
);
