/** Folding deltas in a batch (the daemon's pending deltas) is folding them one at a time. */
import { expect, test } from "bun:test";
import { applyDelta, applyDeltas } from "../../src/snapshot/streaming-message.ts";
import type { DeltaKind, MessageDeltaEvent } from "../../src/types/stream-events.ts";
import type { StreamingMessage } from "../../src/types/streaming-message.ts";

/** Deterministic PRNG so a failing seed can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const KINDS: DeltaKind[] = ["text", "thinking", "tool_call"];

function randomDelta(next: () => number): MessageDeltaEvent {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] ?? xs[0]!;
  const delta: MessageDeltaEvent = {
    type: "message_delta",
    message_id: pick(["m1", "m1", "m1", "m2"]),
    block_index: Math.floor(next() * 4),
    kind: pick(KINDS),
  };
  if (next() < 0.7) delta.text_delta = pick(["a", "bc", "", "é"]);
  if (next() < 0.15) delta.tool_call_id = pick(["c1", "c2"]);
  if (next() < 0.15) delta.name = pick(["bash", "read"]);
  if (next() < 0.3) delta.args_delta = pick(['{"', "x", "}"]);
  return delta;
}

test("property: applyDeltas of any batch equals applyDelta one at a time, key order included", () => {
  const next = rng(7);
  for (let round = 0; round < 2000; round++) {
    let start: StreamingMessage | undefined;
    for (const d of Array.from({ length: Math.floor(next() * 4) }, () => randomDelta(next)))
      start = applyDelta(start, d);
    const frozen = JSON.stringify(start);
    const deltas = Array.from({ length: Math.floor(next() * 12) }, () => randomDelta(next));
    let oneByOne = start;
    for (const d of deltas) oneByOne = applyDelta(oneByOne, d);
    const batch = applyDeltas(start, deltas);
    expect(JSON.stringify(batch)).toBe(JSON.stringify(oneByOne));
    // The message it started from is not changed (snapshots are values).
    expect(JSON.stringify(start)).toBe(frozen);
  }
});

test("an empty batch returns the message it was given", () => {
  const message: StreamingMessage = { message_id: "m", blocks: [{ kind: "text", text: "a" }] };
  expect(applyDeltas(message, [])).toBe(message);
  expect(applyDeltas(undefined, [])).toBeUndefined();
});
