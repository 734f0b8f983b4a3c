/**
 * Wire throughput: LF-only JSONL decode + schema validation of a realistic event mix,
 * against plain `JSON.parse` of the same lines (the ceiling).
 *   bun bench/wire.ts [--messages N]
 */
import { JsonlDecoder } from "../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../src/wire/jsonl-encoder.ts";
import { eventValidator } from "../src/wire/validate.ts";

const count = Number(process.argv[process.argv.indexOf("--messages") + 1]) || 200_000;

function eventMix(n: number): object[] {
  const out: object[] = [];
  for (let i = 0; i < n; i++) {
    const r = i % 100;
    if (r < 80) {
      out.push({
        type: "message_delta",
        seq: i,
        message_id: "msg_1",
        block_index: 0,
        kind: "text",
        text_delta: `token ${i} `,
      });
    } else if (r < 88) {
      out.push({
        type: "message_delta",
        seq: i,
        message_id: "msg_1",
        block_index: 1,
        kind: "tool_call",
        args_delta: '{"path":"src/',
      });
    } else if (r < 93) {
      out.push({
        type: "tool_call",
        seq: i,
        tool_call_id: `tc_${i}`,
        name: "read",
        args: { path: "src/index.ts" },
        read_only: true,
      });
    } else if (r < 97) {
      out.push({
        type: "tool_result",
        seq: i,
        tool_call_id: `tc_${i}`,
        content: { kind: "text", text: "export const x = 1;\n".repeat(40) },
        is_error: false,
        duration_ms: 3,
      });
    } else if (r < 99) {
      out.push({ type: "status", seq: i, status: "streaming" });
    } else {
      out.push({ type: "usage", seq: i, input: 1200, output: 300, cost: 0.01, model: "openai/gpt-4.1" });
    }
  }
  return out;
}

const text = eventMix(count).map(encodeJsonLine).join("");
const bytes = new TextEncoder().encode(text);
const mb = bytes.length / 1e6;
const CHUNK = 64 * 1024;

function ceiling(): number {
  const t = performance.now();
  let n = 0;
  for (const line of new TextDecoder().decode(bytes).split("\n")) {
    if (line) {
      JSON.parse(line);
      n++;
    }
  }
  if (n !== count) throw new Error("ceiling miscounted");
  return performance.now() - t;
}

function decodeAndValidate(): number {
  const t = performance.now();
  let n = 0;
  const decoder = new JsonlDecoder({
    value: (v) => {
      if (!eventValidator.validate(v).ok) throw new Error("invalid event in the mix");
      n++;
    },
    error: (e) => {
      throw new Error(e.message);
    },
  });
  for (let i = 0; i < bytes.length; i += CHUNK) decoder.push(bytes.subarray(i, i + CHUNK));
  decoder.end();
  if (n !== count) throw new Error("decoder miscounted");
  return performance.now() - t;
}

function best(fn: () => number, runs = 5): number {
  fn(); // warm-up (JIT, validator compilation)
  return Math.min(...Array.from({ length: runs }, fn));
}

const base = best(ceiling);
const ours = best(decodeAndValidate);
const row = (name: string, ms: number) =>
  `| ${name} | ${(mb / (ms / 1000)).toFixed(1)} MB/s | ${Math.round(count / (ms / 1000)).toLocaleString("en-US")} msg/s |`;
console.log(`${count.toLocaleString("en-US")} events, ${mb.toFixed(1)} MB, 64 KiB chunks, best of 5`);
console.log("| path | throughput | messages |\n|---|---|---|");
console.log(row("JSON.parse per line (ceiling)", base));
console.log(row("JsonlDecoder + schema validation", ours));
console.log(`ratio: ${((base / ours) * 100).toFixed(0)}% of the ceiling`);
