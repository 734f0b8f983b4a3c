import { describe, expect, test } from "bun:test";
import { LineScanner } from "../../bench/peers/lines.ts";
import {
  opencodeSessionError,
  opencodeSessionIdle,
  opencodeSseLine,
  piLine,
  shardLine,
} from "../../bench/peers/stream-events.ts";

const b = (text: string) => Buffer.from(text);

describe("LineScanner", () => {
  test("splits lines across chunks, keeps the tail until its LF arrives", () => {
    const lines: string[] = [];
    const scanner = new LineScanner((line) => lines.push(line.toString()));
    const bytes = new TextEncoder().encode('{"a":1}\n{"b":"é two"}\n{"c"');
    scanner.push(bytes.subarray(0, 3));
    scanner.push(bytes.subarray(3, 14));
    scanner.push(bytes.subarray(14));
    expect(lines).toEqual(['{"a":1}', '{"b":"é two"}']);
    scanner.push(b(":3}\n"));
    expect(lines).toEqual(['{"a":1}', '{"b":"é two"}', '{"c":3}']);
  });

  test("a reused chunk buffer does not corrupt the pending tail", () => {
    const lines: string[] = [];
    const scanner = new LineScanner((line) => lines.push(line.toString()));
    const chunk = new Uint8Array(5);
    chunk.set(b("ab\ncd"));
    scanner.push(chunk.subarray(0, 4)); // "ab\nc"
    chunk.set(b("d\n\0\0\0"));
    scanner.push(chunk.subarray(0, 2));
    expect(lines).toEqual(["ab", "cd"]);
  });
});

describe("Shard's JSONL", () => {
  test("text deltas are counted, tool-call deltas are not, other events are parsed", () => {
    expect(
      shardLine(
        b('{"type":"message_delta","seq":4,"message_id":"m","block_index":0,"kind":"text","text_delta":"x"}'),
      ),
    ).toEqual({ kind: "delta" });
    expect(
      shardLine(
        b(
          '{"type":"message_delta","seq":5,"message_id":"m","block_index":1,"kind":"tool_call","args_delta":"{"}',
        ),
      ).kind,
    ).toBe("skip");
    expect(shardLine(b('{"type":"turn_end","seq":9}'))).toEqual({
      kind: "event",
      event: { type: "turn_end", seq: 9 },
    });
    expect(shardLine(b("not json")).kind).toBe("skip");
  });
});

describe("pi's RPC stream", () => {
  const partial = JSON.stringify({
    role: "assistant",
    content: [{ type: "text", text: "text_delta ".repeat(100) }],
  });
  test("text_delta updates are counted from their first bytes, whatever the partial message holds", () => {
    const delta = `{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"x","partial":${partial}}}`;
    const start = `{"type":"message_update","assistantMessageEvent":{"type":"text_start","contentIndex":0,"partial":${partial}}}`;
    expect(piLine(b(delta))).toEqual({ kind: "delta" });
    expect(piLine(b(start)).kind).toBe("skip");
  });

  test("responses and agent_end are parsed", () => {
    const item = piLine(b('{"id":"bench-1","type":"response","command":"get_state","success":true}'));
    expect(item).toEqual({
      kind: "event",
      event: { id: "bench-1", type: "response", command: "get_state", success: true },
    });
    expect(piLine(b('{"type":"agent_end","messages":[]}'))).toEqual({
      kind: "event",
      event: { type: "agent_end", messages: [] },
    });
  });
});

describe("opencode's event stream", () => {
  const sid = "ses_1";
  test("text part deltas are counted; other SSE lines are parsed or skipped", () => {
    const delta = `data: {"id":"evt_2320c50a4001xh1JCbVXxGkL3r","type":"message.part.delta","properties":{"sessionID":"${sid}","messageID":"msg_1","partID":"prt_1","field":"text","delta":"x"}}`;
    expect(opencodeSseLine(b(delta))).toEqual({ kind: "delta" });
    expect(opencodeSseLine(b("")).kind).toBe("skip");
    expect(opencodeSseLine(b(": keep-alive")).kind).toBe("skip");
    // A delta type quoted deep inside another event's text is not a delta.
    const updated = `data: {"id":"evt_2","type":"message.part.updated","properties":{"part":{"type":"text","text":"${"y".repeat(100)} \\"type\\":\\"message.part.delta\\""}}}`;
    expect(opencodeSseLine(b(updated))).toMatchObject({
      kind: "event",
      event: { type: "message.part.updated" },
    });
  });

  test("the turn ends when its own session goes idle, in either event form", () => {
    const status = (id: string, type: string) => ({
      type: "session.status",
      properties: { sessionID: id, status: { type } },
    });
    expect(opencodeSessionIdle(status(sid, "idle"), sid)).toBe(true);
    expect(opencodeSessionIdle(status(sid, "busy"), sid)).toBe(false);
    expect(opencodeSessionIdle(status("ses_other", "idle"), sid)).toBe(false);
    expect(opencodeSessionIdle({ type: "session.idle", properties: { sessionID: sid } }, sid)).toBe(true);
  });

  test("a session error is reported with its detail", () => {
    const error = {
      type: "session.error",
      properties: { sessionID: sid, error: { name: "APIError", data: { message: "boom" } } },
    };
    expect(opencodeSessionError(error, sid)).toContain("boom");
    expect(opencodeSessionError(error, "ses_other")).toBeUndefined();
    expect(
      opencodeSessionError({ type: "session.idle", properties: { sessionID: sid } }, sid),
    ).toBeUndefined();
  });
});

test("the JSON.parse floor parses the JSONL a Shard turn of N deltas sends, and the lean client counts it", async () => {
  const { turnJsonl, jsonParseMs } = await import("../../bench/peers/floors.ts");
  const jsonl = turnJsonl(1000);
  let deltas = 0;
  const ends: string[] = [];
  new LineScanner((line) => {
    const item = shardLine(line);
    if (item.kind === "delta") deltas++;
    if (item.kind === "event") ends.push(item.event.type);
  }).push(Buffer.from(jsonl));
  expect([deltas, ends]).toEqual([1000, ["turn_end"]]);
  expect(jsonParseMs(jsonl)).toBeGreaterThanOrEqual(0);
});
