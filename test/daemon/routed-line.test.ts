/** The splice of the daemon's routing into a runtime's line: byte-identical to re-encoding, or refused. */
import { expect, test } from "bun:test";
import { RoutedLines } from "../../src/daemon/broker/routed-line.ts";
import { encodeJsonLine } from "../../src/wire/jsonl-encoder.ts";

const routed = new RoutedLines("agent_a");
const splice = (line: string, seq: number) => routed.splice(line, JSON.parse(line), seq);

test("a line our encoder wrote comes out exactly as re-encoding the event with the daemon's seq and agent_id", () => {
  const events = [
    { type: "message_delta", message_id: "m1", block_index: 0, kind: "text", text_delta: "x", seq: 4 },
    { type: "status", status: "idle", seq: 12345 },
    // Nested objects, escapes and non-ASCII text before the seq.
    {
      type: "message_complete",
      message_id: "m2",
      message: { id: "m2", role: "assistant", content: [{ type: "text", text: 'é "quoted" \\ \u2028 —' }] },
      seq: 7,
    },
  ];
  for (const event of events) {
    const line = encodeJsonLine(event).slice(0, -1);
    const expected = encodeJsonLine({ ...event, seq: 99, agent_id: "agent_a" });
    const spliced = splice(line, 99);
    expect(spliced?.line).toBe(expected);
    expect(spliced?.byteLength).toBe(Buffer.byteLength(expected));
  }
});

test("any other shape is refused (the caller re-encodes the parsed event)", () => {
  const refused = [
    // seq not last, or followed by whitespace
    '{"seq":4,"type":"status","status":"idle"}',
    '{"type":"status","status":"idle","seq":4} ',
    '{"type":"status","status":"idle","seq": 4}',
    // a nested seq key, a second top-level one
    '{"type":"error","code":"X","message":"m","fatal":false,"details":{"seq":1},"seq":4}',
    '{"type":"status","seq":4,"status":"idle","seq":4}',
    // the runtime's own agent_id
    '{"type":"status","agent_id":"agent_b","status":"idle","seq":4}',
    // a raw line separator
    '{"type":"error","code":"X","message":"a\u2028b","fatal":false,"seq":4}',
  ];
  for (const line of refused) expect(splice(line, 99)).toBeUndefined();
});
