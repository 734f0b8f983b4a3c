/**
 * Cost of the one agent-state projection (src/snapshot): every event a runtime emits, and every
 * event the daemon forwards, goes through `applyEvent`. Measures a streamed turn of N text
 * deltas plus its completion, and the sync built from the result; best and median of 7.
 * Usage: bun bench/snapshot.ts [--deltas 10000]
 */
import { emptySnapshot, syncFromSnapshot } from "../src/snapshot/agent-snapshot.ts";
import { applyEvent } from "../src/snapshot/apply-event.ts";

const at = process.argv.indexOf("--deltas");
const deltas = Number(at > 0 ? process.argv[at + 1] : 10_000);

function turn(): number {
  const started = performance.now();
  let s = applyEvent(emptySnapshot(), { type: "turn_start", seq: 1, turn_id: "t" });
  let text = "";
  for (let i = 0; i < deltas; i++) {
    text += "word ";
    s = applyEvent(s, {
      type: "message_delta",
      seq: i + 2,
      message_id: "m",
      block_index: 0,
      kind: "text",
      text_delta: "word ",
    });
  }
  const message = { id: "m", role: "assistant" as const, content: [{ type: "text" as const, text }] };
  s = applyEvent(s, { type: "message_complete", seq: deltas + 2, message_id: "m", message });
  s = applyEvent(s, { type: "turn_end", seq: deltas + 3, turn_id: "t" });
  syncFromSnapshot(s);
  return performance.now() - started;
}

turn(); // warm-up
const times = Array.from({ length: 7 }, turn).sort((a, b) => a - b);
const median = times[3] ?? 0;
console.log(
  `| applyEvent, turn of ${deltas.toLocaleString("en")} deltas | best ${(times[0] ?? 0).toFixed(1)} ms, median ${median.toFixed(1)} ms (${((median * 1000) / deltas).toFixed(2)} µs per delta) |`,
);
