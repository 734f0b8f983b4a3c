/**
 * The SSE body reader the providers use instead of the SDKs' decoders: events survive any
 * chunking (UTF-8 split mid-character included), CRLF, multi-line data, comments and a last
 * event without its blank line; `[DONE]` ends; an API error mid-stream is a StreamErrorEvent;
 * a line that never ends cannot grow memory without bound.
 */
import { describe, expect, test } from "bun:test";
import { StreamErrorEvent } from "../../src/providers/classify-error.ts";
import { jsonEvents, MAX_LINE_CHARS, type SseEvent, sseEvents } from "../../src/providers/sse-stream.ts";
import { isRecord } from "../../src/support/is-record.ts";

function body(chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(typeof c === "string" ? encoder.encode(c) : c);
      controller.close();
    },
  });
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Splits `bytes` at the given cut points. */
function cut(bytes: Uint8Array, points: number[]): Uint8Array[] {
  const sorted = [...new Set(points)].filter((p) => p > 0 && p < bytes.length).sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const p of sorted) {
    parts.push(bytes.slice(from, p));
    from = p;
  }
  parts.push(bytes.slice(from));
  return parts;
}

const STREAM =
  ": a comment\r\n" +
  'event: message_start\r\ndata: {"type":"message_start","text":"héllo ✓ 🚀"}\r\n\r\n' +
  "data: first line\ndata: second line\n\n" +
  "id: 7\nretry: 100\ndata:no space\n\n" +
  "event: ping\ndata: {}\n\n" +
  "data: last without a blank line";

const EXPECTED: SseEvent[] = [
  { event: "message_start", data: '{"type":"message_start","text":"héllo ✓ 🚀"}' },
  { event: undefined, data: "first line\nsecond line" },
  { event: undefined, data: "no space" },
  { event: "ping", data: "{}" },
  { event: undefined, data: "last without a blank line" },
];

describe("sseEvents", () => {
  test("reads fields, comments, CRLF, multi-line data and a last event the server did not end", async () => {
    expect(await collect(sseEvents(body([STREAM])))).toEqual(EXPECTED);
  });

  test("property: any chunking, even mid-character, yields the same events", async () => {
    const bytes = new TextEncoder().encode(STREAM);
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 200; round++) {
      const points = Array.from({ length: 1 + Math.floor(random() * 12) }, () =>
        Math.floor(random() * bytes.length),
      );
      expect(await collect(sseEvents(body(cut(bytes, points))))).toEqual(EXPECTED);
    }
    const oneByteEach = Array.from({ length: bytes.length }, (_, i) => i);
    expect(await collect(sseEvents(body(cut(bytes, oneByteEach))))).toEqual(EXPECTED);
  });

  test("a lone CR ends a line too (the SSE spec's third line ending), also when split from its LF", async () => {
    const stream = 'data: {"a":1}\r\rdata: two\r\n\r\ndata: three\n\n';
    const expected = [
      { event: undefined, data: '{"a":1}' },
      { event: undefined, data: "two" },
      { event: undefined, data: "three" },
    ];
    expect(await collect(sseEvents(body([stream])))).toEqual(expected);
    const bytes = new TextEncoder().encode(stream);
    for (let at = 1; at < bytes.length; at++) {
      expect(await collect(sseEvents(body(cut(bytes, [at]))))).toEqual(expected);
    }
  });

  test("a line that never ends is an error once it passes the limit, not an unbounded buffer", async () => {
    const huge = "x".repeat(1024 * 1024);
    const chunks = ["data: ", ...Array.from({ length: MAX_LINE_CHARS / huge.length + 1 }, () => huge)];
    const failed = await collect(sseEvents(body(chunks))).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(StreamErrorEvent);
    expect(String((failed as Error).message)).toContain("without ending it");
  });
});

describe("jsonEvents", () => {
  const typed = (v: Record<string, unknown>): v is Record<string, unknown> & { type: string } =>
    typeof v.type === "string";

  test("[DONE] ends the stream; ping and empty data are skipped; untaken events are dropped", async () => {
    const events = await collect(
      jsonEvents(
        body([
          'data: {"type":"a"}\n\n',
          'event: ping\ndata: {"type":"ping"}\n\n',
          "data: \n\n",
          'data: {"other":1}\n\n',
          "data: [DONE]\n\n",
          'data: {"type":"after"}\n\n',
        ]),
        typed,
      ),
    );
    expect(events).toEqual([{ type: "a" }]);
  });

  test("an { error } in the data, or an error event, is the API's failure mid-stream", async () => {
    const inData = await collect(
      jsonEvents(
        body(['data: {"error":{"message":"overloaded","type":"server_error","code":"x1"}}\n\n']),
        typed,
      ),
    ).catch((e: unknown) => e);
    expect(inData).toBeInstanceOf(StreamErrorEvent);
    expect(inData).toMatchObject({ message: "overloaded", errorType: "server_error", code: "x1" });
    const asEvent = await collect(
      jsonEvents(body(['event: error\ndata: {"message":"bad","code":"rate_limit"}\n\n']), typed),
    ).catch((e: unknown) => e);
    expect(asEvent).toMatchObject({ message: "bad", code: "rate_limit" });
  });

  test("data that is not JSON is a stream error that quotes its start", async () => {
    const failed = await collect(jsonEvents(body(["data: {not json\n\n"]), typed)).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(StreamErrorEvent);
    expect(String((failed as Error).message)).toContain("{not json");
    expect(isRecord([])).toBe(false);
  });
});
