/**
 * A stand-in for `shard agent` whose output is not to be trusted (the daemon runs it through
 * `shardCommand`; the runtime arguments it is given are ignored). It becomes ready like a real
 * runtime (hello, then sync), accepts a `prompt`, and answers it with the lines of
 * MISBEHAVING_LINES: bad JSON, a schema-invalid event, events in shapes our encoder never
 * writes, then `status: idle` as the last line.
 */
import { JsonlDecoder } from "../../../src/wire/jsonl-decoder.ts";

const write = (line: string) => process.stdout.write(`${line}\n`);
const json = (value: object) => JSON.stringify(value);

/** What the runtime writes after accepting a prompt, in order. */
export const MISBEHAVING_LINES: readonly string[] = [
  json({ type: "status", status: "streaming", seq: 1 }),
  "this is not JSON",
  json({ type: "message_delta", seq: 2 }),
  json({ type: "message_delta", message_id: "m1", block_index: 0, kind: "text", text_delta: "a", seq: 3 }),
  // It names another agent (where our encoder would put it): the daemon's agent_id must replace it.
  json({
    type: "message_delta",
    agent_id: "agent_someone_else",
    message_id: "m1",
    block_index: 0,
    kind: "text",
    text_delta: "b",
    seq: 4,
  }),
  // A raw U+2028 (JSON allows it; line-oriented readers in other languages split on it).
  `{"type":"message_delta","message_id":"m1","block_index":0,"kind":"text","text_delta":"c\u2028","seq":5}`,
  // Two seq keys: a first-key-wins parser must not see the runtime's.
  '{"type":"message_delta","seq":6,"message_id":"m1","block_index":0,"kind":"text","text_delta":"d","seq":6}',
  // Whitespace and another key order: still the same event.
  ' { "seq" : 7 , "type" : "message_delta", "message_id": "m1", "block_index": 0, "kind": "text", "text_delta": "e" } ',
  // In our encoder's shape (the daemon's unparsed fast path) but not valid: bad JSON (an unknown
  // escape, a raw tab), a negative block index, an unknown kind, an empty message id. Dropped, as
  // any invalid line is.
  '{"type":"message_delta","message_id":"m1","block_index":0,"kind":"text","text_delta":"\\q","seq":8}',
  '{"type":"message_delta","message_id":"m1","block_index":0,"kind":"text","text_delta":"a\tb","seq":9}',
  '{"type":"message_delta","message_id":"m1","block_index":-1,"kind":"text","text_delta":"f","seq":10}',
  '{"type":"message_delta","message_id":"m1","block_index":0,"kind":"image","text_delta":"f","seq":11}',
  '{"type":"message_delta","message_id":"","block_index":0,"kind":"text","text_delta":"f","seq":12}',
  // Valid, in our encoder's shape, with escapes and non-ASCII text: forwarded unparsed.
  json({
    type: "message_delta",
    message_id: "m1",
    block_index: 0,
    kind: "text",
    text_delta: 'é"\\\n😀',
    seq: 13,
  }),
  json({ type: "status", status: "idle", seq: 14 }),
];

/** How many of MISBEHAVING_LINES are not valid events (the daemon drops them). */
export const INVALID_LINE_COUNT = 7;

if (import.meta.main) {
  write(
    json({ type: "hello", protocol_version: "0.1.0", server_version: "0.1.0", capabilities: [], seq: 0 }),
  );
  write(
    json({
      type: "sync",
      seq: 0,
      status: "idle",
      mode: "build",
      live_window: { messages: [] },
      pending_requests: [],
    }),
  );
  const decoder = new JsonlDecoder({
    value: (value) => {
      if (typeof value !== "object" || value === null || !("type" in value) || value.type !== "prompt")
        return;
      const id = "id" in value && typeof value.id === "string" ? value.id : undefined;
      write(
        json({ type: "response", command: "prompt", success: true, ...(id !== undefined ? { id } : {}) }),
      );
      for (const line of MISBEHAVING_LINES) write(line);
    },
    error: () => {},
  });
  for await (const chunk of Bun.stdin.stream()) decoder.push(chunk);
}
