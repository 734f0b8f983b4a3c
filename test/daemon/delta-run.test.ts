/** A delta run's bytes: each line as re-encoding it with the daemon's `seq` and `agent_id` would give. */
import { expect, test } from "bun:test";
import { DeltaRunWriter, writeDigits } from "../../src/daemon/broker/delta-run.ts";
import { encodeJsonLine } from "../../src/wire/jsonl-encoder.ts";

test("a seq's digits are written in place, as String() prints them, from 0 to the largest safe integer", () => {
  const values = [0, 1, 9, 10, 99, 100, 101, 12345, 999_999_999_999_999, 10 ** 15, Number.MAX_SAFE_INTEGER];
  for (let i = 0; i < 2000; i++) values.push(Math.floor(Math.random() * Number.MAX_SAFE_INTEGER));
  for (let i = 0; i < 200; i++) values.push(Math.floor(Math.random() * 10 ** (1 + (i % 16))));
  const out = Buffer.alloc(40, "#");
  for (const n of values) {
    out.fill("#");
    const end = writeDigits(out, 3, n);
    expect(out.toString("latin1", 3, end)).toBe(String(n));
    // Nothing around the digits is touched.
    expect(out.toString("latin1", 0, 3)).toBe("###");
    expect(out[end]).toBe(0x23);
  }
});

const delta = (i: number) => ({
  type: "message_delta",
  message_id: "msg_8uTWtorGNd2uLq7R3z4M",
  block_index: 0,
  kind: "text",
  text_delta: i % 7 === 0 ? 'a "quoted" \\ tab\t' : "x",
});

test("a run longer than its buffer, stamped near the largest safe seq, is byte-identical to re-encoding", () => {
  const count = 6000; // ~750 KB of routed lines: past a 512 KiB run buffer, so it grows mid-run
  const text = Array.from({ length: count }, (_, i) => encodeJsonLine({ ...delta(i), seq: i + 1 })).join("");
  const bytes = Buffer.from(text);
  expect(bytes.length).toBe(text.length); // ASCII, as the run needs
  const base = Number.MAX_SAFE_INTEGER - count;
  const run = new DeltaRunWriter("agent-abc").write(text, 0, bytes, base, false);
  const expected = Array.from({ length: count }, (_, i) =>
    encodeJsonLine({ ...delta(i), seq: base + i + 1, agent_id: "agent-abc" }),
  ).join("");
  expect(run?.lines).toBe(count);
  expect(run?.end).toBe(text.length);
  expect(Buffer.from(run?.bytes ?? []).toString("latin1")).toBe(expected);

  // The next run, written while the first is still held (into another buffer), is as exact.
  const again = new DeltaRunWriter("agent-def").write(text, 0, bytes, 41, false);
  expect(Buffer.from(again?.bytes ?? []).toString("latin1")).toBe(
    Array.from({ length: count }, (_, i) =>
      encodeJsonLine({ ...delta(i), seq: 42 + i, agent_id: "agent-def" }),
    ).join(""),
  );
});
