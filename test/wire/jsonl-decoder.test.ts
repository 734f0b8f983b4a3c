import { describe, expect, test } from "bun:test";
import type { WireError } from "../../src/wire/errors.ts";
import { JsonlDecoder } from "../../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../../src/wire/jsonl-encoder.ts";

function collect(maxLineBytes?: number) {
  const values: unknown[] = [];
  const errors: WireError[] = [];
  const decoder = new JsonlDecoder(
    { value: (v) => values.push(v), error: (e) => errors.push(e) },
    maxLineBytes === undefined ? {} : { maxLineBytes },
  );
  return { decoder, values, errors };
}

const bytes = (s: string) => new TextEncoder().encode(s);

/** Deterministic PRNG so a failing seed can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("JsonlDecoder", () => {
  test("keeps U+2028/U+2029 inside strings instead of splitting the line", () => {
    const { decoder, values, errors } = collect();
    decoder.push(bytes('{"type":"prompt","message":"a\u2028b\u2029c"}\n'));
    expect(errors).toEqual([]);
    expect(values).toEqual([{ type: "prompt", message: "a\u2028b\u2029c" }]);
  });

  test("a sink's run takes whole lines of an ASCII chunk in place; the rest go one at a time, numbered", () => {
    const values: unknown[] = [];
    const errors: WireError[] = [];
    const offered: string[] = [];
    const decoder = new JsonlDecoder({
      value: (v) => values.push(v),
      error: (e) => errors.push(e),
      // Takes a run of lines starting with "r" (as the text and bytes of the same characters).
      run: (text, from, chunk) => {
        offered.push(text.slice(from, from + 3));
        let end = from;
        let lines = 0;
        while (end < text.length && text[end] === "r") {
          expect(chunk[end]).toBe(0x72);
          const nl = text.indexOf("\n", end);
          end = nl === -1 ? text.length : nl + 1;
          lines++;
        }
        return lines === 0 ? undefined : { end, lines };
      },
    });
    decoder.push(bytes('r1\nr2\n{"a":1}\nr3\nbad\n{"b":'));
    decoder.push(bytes('2}\nr4\n{"c":"é"}\nr5\n'));
    // Offered where a line starts after one that went on its own: r1–r2 and r3 were taken; the
    // line after a run goes on its own; the non-ASCII chunk was not offered (r4, r5 are errors).
    expect(offered).toEqual(["r1\n", "r3\n"]);
    expect(values).toEqual([{ a: 1 }, { b: 2 }, { c: "é" }]);
    expect(errors.map((e) => e.message.split(":")[0])).toEqual(["line 5", "line 7", "line 9"]);
  });

  test("tolerates CRLF by stripping exactly one trailing CR", () => {
    const { decoder, values } = collect();
    decoder.push(bytes('{"a":1}\r\n{"b":"x\\r"}\r\n'));
    expect(values).toEqual([{ a: 1 }, { b: "x\r" }]);
  });

  test("skips empty and blank lines", () => {
    const { decoder, values, errors } = collect();
    decoder.push(bytes('\n\n{"a":1}\n   \n\r\n{"a":2}\n'));
    expect(values).toEqual([{ a: 1 }, { a: 2 }]);
    expect(errors).toEqual([]);
  });

  test("a multi-byte character split across chunks decodes intact", () => {
    const { decoder, values } = collect();
    const all = bytes('{"t":"héllo 🎉 世界"}\n');
    const emoji = all.indexOf(0xf0);
    decoder.push(all.subarray(0, emoji + 1));
    decoder.push(all.subarray(emoji + 1, emoji + 3));
    decoder.push(all.subarray(emoji + 3));
    expect(values).toEqual([{ t: "héllo 🎉 世界" }]);
  });

  test("property: any chunking of a stream yields the same messages", () => {
    const messages = Array.from({ length: 200 }, (_, i) => ({
      type: "message_delta",
      i,
      text_delta: `chunk ${i} é🎉\u2028 ${"x".repeat(i % 37)}`,
    }));
    const stream = bytes(messages.map((m) => encodeJsonLine(m)).join(""));
    for (let seed = 1; seed <= 50; seed++) {
      const next = rng(seed);
      const { decoder, values, errors } = collect();
      let at = 0;
      while (at < stream.length) {
        const size = 1 + Math.floor(next() * 64);
        decoder.push(stream.subarray(at, at + size));
        at += size;
      }
      decoder.end();
      expect(errors).toEqual([]);
      expect(values).toEqual(messages);
    }
  });

  test("an over-long line is reported and the next good line still arrives", () => {
    const { decoder, values, errors } = collect(64);
    decoder.push(bytes(`{"big":"${"x".repeat(40)}`));
    decoder.push(bytes(`${"y".repeat(100)}"}\n{"ok":true}\n`));
    expect(values).toEqual([{ ok: true }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.code).toBe("INVALID_REQUEST");
    expect(errors[0]?.message).toContain("64-byte limit");
  });

  test("an over-long line inside one chunk is reported too", () => {
    const { decoder, values, errors } = collect(16);
    decoder.push(bytes(`{"big":"${"x".repeat(40)}"}\n{"ok":1}\n`));
    expect(values).toEqual([{ ok: 1 }]);
    expect(errors[0]?.message).toContain("line 1");
  });

  test("bad JSON is reported with its line number and the stream carries on", () => {
    const { decoder, values, errors } = collect();
    decoder.push(bytes('{"a":1}\n{nope\n{"a":3}\n'));
    expect(values).toEqual([{ a: 1 }, { a: 3 }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toStartWith("line 2: bad JSON");
  });

  test("an unterminated final line is reported at end of stream, not used", () => {
    const { decoder, values, errors } = collect();
    decoder.push(bytes('{"a":1}\n{"a":2}'));
    expect(values).toEqual([{ a: 1 }]);
    decoder.end();
    expect(values).toEqual([{ a: 1 }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain("unterminated final line");
  });

  test("an unterminated final line over the limit is reported at end of stream", () => {
    const { decoder, values, errors } = collect(16);
    decoder.push(bytes('{"ok":1}\n{"big":"'));
    decoder.push(bytes(`${"x".repeat(40)}`));
    expect(errors).toEqual([]);
    decoder.end();
    expect(values).toEqual([{ ok: 1 }]);
    expect(errors).toEqual([
      { code: "INVALID_REQUEST", message: "line 2: line exceeds the 16-byte limit and was skipped" },
    ]);
    // Nothing is left over: a second end() reports nothing more.
    decoder.end();
    expect(errors).toHaveLength(1);
  });

  test("the caller may reuse its chunk buffer", () => {
    const { decoder, values } = collect();
    const buf = bytes('{"a":"123');
    decoder.push(buf);
    buf.fill(0x20);
    decoder.push(bytes('4"}\n'));
    expect(values).toEqual([{ a: "1234" }]);
  });
});

describe("JsonlDecoder text sink", () => {
  test("a line the sink takes as text is not parsed; the others are; `ascii` only when its bytes were all ASCII", () => {
    const taken: [string, boolean][] = [];
    const values: unknown[] = [];
    const errors: WireError[] = [];
    const decoder = new JsonlDecoder({
      value: (v) => values.push(v),
      error: (e) => errors.push(e),
      text: (line, ascii) => {
        if (!line.startsWith("take")) return false;
        taken.push([line, ascii]);
        return true;
      },
    });
    decoder.push(bytes('take 1\n{"a":1}\ntake not JSON\n'));
    decoder.push(bytes("take é\n"));
    // A line split across chunks, then one with a byte that is not UTF-8 (decoded to U+FFFD).
    decoder.push(bytes("take sp"));
    decoder.push(bytes("lit\n"));
    decoder.push(new Uint8Array([...bytes("take "), 0xff, 0x0a]));
    decoder.push(bytes("take 😀\n"));
    expect(values).toEqual([{ a: 1 }]);
    expect(errors).toEqual([]);
    expect(taken).toEqual([
      ["take 1", true],
      ["take not JSON", true],
      ["take é", false],
      ["take split", true],
      ["take \uFFFD", false],
      ["take 😀", false],
    ]);
  });
});

describe("encodeJsonLine", () => {
  test("writes one line and escapes U+2028/U+2029", () => {
    const line = encodeJsonLine({ t: "a\u2028b\u2029c\nd" });
    expect(line.endsWith("\n")).toBe(true);
    expect(line.slice(0, -1).includes("\n")).toBe(false);
    expect(line).not.toContain("\u2028");
    expect(line).toContain("\\u2028");
    expect(JSON.parse(line)).toEqual({ t: "a\u2028b\u2029c\nd" });
  });
});
