/**
 * The daemon's fast path for `message_delta` lines takes a line without parsing it, so what it
 * accepts must be exactly a valid event in our encoder's shape: every line it takes parses and
 * passes the event's schema check, and anything else is left to the ordinary path.
 */
import { describe, expect, test } from "bun:test";
import {
  deltaLineMessageId,
  deltaLineSeqAt,
  deltaRunEnd,
  isThinkingDeltaLine,
  SEQ_MEMBER,
} from "../../src/wire/delta-line.ts";
import { encodeJsonLine } from "../../src/wire/jsonl-encoder.ts";
import { asAgentEvent } from "../../src/wire/validate.ts";

/** The runtime's line for a delta: `{...delta, seq}`, encoded as it encodes every event. */
const runtimeLine = (delta: object, seq: number) => encodeJsonLine({ ...delta, seq }).slice(0, -1);

/** Deterministic PRNG so a failing seed can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const TEXT = { type: "message_delta", message_id: "msg_1", block_index: 0, kind: "text", text_delta: "x" };

describe("deltaLineSeqAt", () => {
  test("takes every delta our runtime writes, and finds its seq member", () => {
    const deltas = [
      TEXT,
      { ...TEXT, kind: "thinking", text_delta: "hmm" },
      { ...TEXT, block_index: 3, kind: "tool_call", tool_call_id: "call_1", name: "bash" },
      { ...TEXT, block_index: 3, kind: "tool_call", args_delta: '{"command":"ls' },
      // Escapes, non-ASCII, U+2028 (escaped by the encoder), an empty text.
      { ...TEXT, text_delta: 'é "q" \\ \n\t\u0001 \u2028 😀' },
      { ...TEXT, text_delta: "" },
      { ...TEXT, message_id: 'm "quoted" ","block_index":9' },
    ];
    for (const delta of deltas)
      for (const seq of [0, 7, 123456789012345]) {
        const line = runtimeLine(delta, seq);
        expect(deltaLineSeqAt(line)).toBe(line.lastIndexOf(SEQ_MEMBER));
        expect(line.slice(deltaLineSeqAt(line))).toBe(`,"seq":${seq}}`);
        expect(deltaLineMessageId(line)).toBe(delta.message_id);
      }
  });

  test("leaves every other shape, and every invalid delta, to the ordinary path", () => {
    const refused = [
      // another key order, whitespace, the runtime's own agent_id, no seq, seq not last
      '{"message_id":"m","type":"message_delta","block_index":0,"kind":"text","text_delta":"x","seq":1}',
      '{"type":"message_delta","message_id":"m","block_index":0,"kind":"text","text_delta":"x", "seq":1}',
      '{"type":"message_delta","message_id":"m","block_index":0,"kind":"text","text_delta":"x","agent_id":"a","seq":1}',
      '{"type":"message_delta","message_id":"m","block_index":0,"kind":"text","text_delta":"x"}',
      '{"type":"message_delta","message_id":"m","block_index":0,"kind":"text","seq":1,"text_delta":"x"}',
      '{"type":"message_delta","message_id":"m","block_index":0,"kind":"text","name":"n","text_delta":"x","seq":1}',
      // invalid events: empty id, negative or fractional or leading-zero index, unknown kind
      '{"type":"message_delta","message_id":"","block_index":0,"kind":"text","text_delta":"x","seq":1}',
      '{"type":"message_delta","message_id":"m","block_index":-1,"kind":"text","text_delta":"x","seq":1}',
      '{"type":"message_delta","message_id":"m","block_index":1.5,"kind":"text","text_delta":"x","seq":1}',
      '{"type":"message_delta","message_id":"m","block_index":01,"kind":"text","text_delta":"x","seq":1}',
      '{"type":"message_delta","message_id":"m","block_index":0,"kind":"image","text_delta":"x","seq":1}',
      '{"type":"message_delta","message_id":"m","block_index":0,"kind":"text","text_delta":7,"seq":1}',
      // bad JSON: an unknown escape, a raw control character, an unterminated string, junk after
      '{"type":"message_delta","message_id":"m","block_index":0,"kind":"text","text_delta":"\\q","seq":1}',
      '{"type":"message_delta","message_id":"m","block_index":0,"kind":"text","text_delta":"\\u12","seq":1}',
      '{"type":"message_delta","message_id":"m","block_index":0,"kind":"text","text_delta":"a\tb","seq":1}',
      '{"type":"message_delta","message_id":"m","block_index":0,"kind":"text","text_delta":"x\\","seq":1}',
      '{"type":"message_delta","message_id":"m","block_index":0,"kind":"text","text_delta":"x","seq":1}}',
      // a raw line separator (our encoder escapes it), a seq too long to print back as written
      '{"type":"message_delta","message_id":"m","block_index":0,"kind":"text","text_delta":"a\u2028","seq":1}',
      '{"type":"message_delta","message_id":"m","block_index":0,"kind":"text","text_delta":"x","seq":1234567890123456}',
      '{"type":"message_delta","message_id":"m","block_index":0,"kind":"text","text_delta":"x","seq":01}',
      '{"type":"status","status":"idle","seq":1}',
    ];
    for (const line of refused) expect({ line, at: deltaLineSeqAt(line) }).toEqual({ line, at: -1 });
    // Inside a chunk's text too, and a CRLF line is left to the one-line path (which strips the CR).
    const taken = runtimeLine(TEXT, 1);
    for (const line of [...refused, `${taken}\r`]) {
      const text = `${taken}\n${line}\n${taken}`;
      for (const thinking of [false, true])
        expect({ line, end: deltaRunEnd(text, taken.length + 1, thinking) }).toEqual({ line, end: -1 });
    }
  });

  test("property: a line it takes, however mangled, parses and passes the message_delta schema", () => {
    const alphabet = ['"', "\\", ",", ":", "{", "}", "0", "1", "-", "u", "a", " ", "\u2028", "é", "\n"];
    const next = rng(20261202);
    const base = [
      runtimeLine(TEXT, 12),
      runtimeLine({ ...TEXT, kind: "tool_call", tool_call_id: "c", name: "n", text_delta: undefined }, 3),
      runtimeLine({ ...TEXT, text_delta: 'a\\"b\\u00e9' }, 40),
    ];
    let taken = 0;
    for (let i = 0; i < 20_000; i++) {
      let line = base[Math.floor(next() * base.length)] ?? "";
      for (let edits = 1 + Math.floor(next() * 3); edits > 0; edits--) {
        const at = Math.floor(next() * (line.length + 1));
        const ch = alphabet[Math.floor(next() * alphabet.length)] ?? "";
        const op = next();
        line =
          op < 0.4
            ? line.slice(0, at) + ch + line.slice(at)
            : op < 0.8
              ? line.slice(0, at) + line.slice(at + 1)
              : line.slice(0, at) + ch + line.slice(at + 1);
      }
      const seqAt = deltaLineSeqAt(line);
      // In a chunk's text, between two lines: the run taken in one call, from the line or the
      // one before it, ends where checking one line at a time, in each phase, stops.
      const before = runtimeLine(TEXT, 1);
      const text = `${before}\n${line}\n${before}`;
      for (const from of [0, before.length + 1])
        for (const thinking of [false, true])
          expect({ line, from, thinking, end: deltaRunEnd(text, from, thinking) }).toEqual({
            line,
            from,
            thinking,
            end: runEndLineByLine(text, from, thinking),
          });
      if (seqAt === -1) continue;
      taken++;
      const event = asAgentEvent(JSON.parse(line));
      expect({ line, type: event?.type }).toEqual({ line, type: "message_delta" });
      expect(line.slice(seqAt + SEQ_MEMBER.length, -1)).toBe(String(event?.seq));
      expect(deltaLineMessageId(line)).toBe(event?.type === "message_delta" ? event.message_id : "");
      expect(isThinkingDeltaLine(line)).toBe(event?.type === "message_delta" && event.kind === "thinking");
    }
    // Some mangled lines are still valid deltas (an edit inside a string): the check saw them.
    expect(taken).toBeGreaterThan(100);
  });
});

describe("deltaRunEnd", () => {
  test("takes a run of delta lines in a chunk's text, the last one without its LF, each run in its phase", () => {
    const lines = [
      runtimeLine(TEXT, 1),
      runtimeLine({ ...TEXT, kind: "thinking", text_delta: 'a \\ "b"' }, 2),
      runtimeLine({ ...TEXT, block_index: 3, kind: "tool_call", args_delta: '{"c' }, 3),
    ];
    const text = lines.join("\n");
    const [first = "", second = ""] = lines;
    const secondAt = first.length + 1;
    const thirdAt = secondAt + second.length + 1;
    expect([deltaRunEnd(text, 0, false), deltaRunEnd(text, 0, true)]).toEqual([secondAt, -1]);
    expect([deltaRunEnd(text, secondAt, true), deltaRunEnd(text, secondAt, false)]).toEqual([thirdAt, -1]);
    expect([deltaRunEnd(text, thirdAt, false), deltaRunEnd(text, thirdAt, true)]).toEqual([text.length, -1]);
    // Text and tool-call deltas are one phase: one run, up to the line that is not a delta.
    const streaming = [lines[0], lines[2], lines[0], '{"type":"status","status":"idle","seq":9}'].join("\n");
    expect(deltaRunEnd(streaming, 0, false)).toBe(streaming.lastIndexOf("\n") + 1);
  });

  test("a run of several MiB is taken in parts that end at line ends and together cover it", () => {
    const lines = Array.from({ length: 40_000 }, (_, i) =>
      runtimeLine({ ...TEXT, text_delta: "x".repeat(i % 50) }, i),
    );
    const text = lines.join("\n");
    expect(text.length).toBeGreaterThan(3 * 1024 * 1024);
    const ends: number[] = [];
    for (let at = 0; at < text.length; ) {
      const end = deltaRunEnd(text, at, false);
      expect(end).toBeGreaterThan(at);
      expect(end === text.length || text[end - 1] === "\n").toBe(true);
      ends.push(end);
      at = end;
    }
    expect(ends.length).toBeGreaterThan(2);
    expect(ends.at(-1)).toBe(text.length);
  });
});

/** Where a run from `from` ends, found one line at a time with the one-line check: the reference. */
function runEndLineByLine(text: string, from: number, thinking: boolean): number {
  let at = from;
  while (at < text.length) {
    const lf = text.indexOf("\n", at);
    const line = lf === -1 ? text.slice(at) : text.slice(at, lf);
    if (deltaLineSeqAt(line) === -1 || isThinkingDeltaLine(line) !== thinking) break;
    at = lf === -1 ? text.length : lf + 1;
  }
  return at === from ? -1 : at;
}
