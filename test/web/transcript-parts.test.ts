/**
 * The transcript's pure parts, without a browser: which links survive, how a tool's truncation
 * note is found, the virtual window's arithmetic, which messages are rows, and arguments.
 */
import { describe, expect, test } from "bun:test";
import type { Message } from "../../src/types/messages.ts";
import { safeImageSource } from "../../web/src/views/transcript/image-source.ts";
import {
  CHUNK_CHARS,
  clipText,
  HEAD_CHARS,
  LINE_CHARS,
  textChunks,
} from "../../web/src/views/transcript/long-text.ts";
import { isSafeHref } from "../../web/src/views/transcript/safe-href.ts";
import { argPairs, callTarget, parsedArgs } from "../../web/src/views/transcript/tool-args.ts";
import { indexMessages } from "../../web/src/views/transcript/transcript-rows.ts";
import { splitTruncation } from "../../web/src/views/transcript/truncation.ts";
import { prefixOffsets, rowAt, visibleRange } from "../../web/src/views/transcript/virtual-window.ts";

describe("isSafeHref", () => {
  test("keeps absolute http(s) and mailto links", () => {
    for (const href of [
      "https://example.com/a?b=1#c",
      "http://127.0.0.1:8080/",
      "HTTPS://X.ORG",
      "mailto:a@b.c",
    ]) {
      expect({ href, safe: isSafeHref(href) }).toEqual({ href, safe: true });
    }
  });

  test("refuses script, data, file and relative targets, however they are spelled", () => {
    for (const href of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "java\nscript:alert(1)",
      "\u0001javascript:alert(1)",
      "vbscript:msgbox(1)",
      "data:text/html,<script>alert(1)</script>",
      "data:image/svg+xml,<svg onload=alert(1)>",
      "file:///etc/passwd",
      "//evil.example/x",
      "/ws",
      "./x",
      "x",
      "https:/x",
      "https://",
      "mailto:",
      "",
    ]) {
      expect({ href, safe: isSafeHref(href) }).toEqual({ href, safe: false });
    }
  });
});

describe("splitTruncation", () => {
  test("finds bash's note after the kept tail", () => {
    const note =
      "[Output truncated: showing the last 2000 of 3001 lines (10.0 KB of 14.0 KB); the first 4.0 KB were dropped]";
    expect(splitTruncation(`a\nb\n\n${note}`)).toEqual({ body: "a\nb", truncation: note.slice(1, -1) });
  });

  test("finds read's page note and grep's block of notes", () => {
    expect(
      splitTruncation("x\n\n[Showing lines 1-2000 of 5000. Use offset=2001 to continue.]").truncation,
    ).toBe("Showing lines 1-2000 of 5000. Use offset=2001 to continue.");
    const grep = splitTruncation(
      "a:1:x\n\n[Output cut at 50.0 KB. Narrow the search.]\n[Stopped after 100 matches.]",
    );
    expect(grep).toEqual({
      body: "a:1:x",
      truncation: "Output cut at 50.0 KB. Narrow the search.\nStopped after 100 matches.",
    });
  });

  test("leaves output without a cut note alone", () => {
    for (const text of ["plain", "a\n\nb", "x\n\n[exit code: 1]", "x\n\n[Showing off] and more", ""]) {
      expect(splitTruncation(text)).toEqual({ body: text });
    }
  });
});

describe("clipText and textChunks", () => {
  test("cuts after the given number of lines and counts the rest", () => {
    expect(clipText("1\n2\n3\n4", 2)).toEqual({ text: "1\n2", cut: true, hiddenLines: 2, hiddenChars: 3 });
    expect(clipText("1\n2\n3\n", 2)).toEqual({ text: "1\n2", cut: true, hiddenLines: 1, hiddenChars: 2 });
    expect(clipText("1\n2", 2)).toEqual({ text: "1\n2", cut: false, hiddenLines: 0, hiddenChars: 0 });
    expect(clipText("1\n2\n", 2)).toEqual({ text: "1\n2\n", cut: false, hiddenLines: 0, hiddenChars: 0 });
  });

  test("cuts a long line and bounds the whole", () => {
    const line = "x".repeat(LINE_CHARS + 500);
    expect(clipText(`a\n${line}\nb`)).toEqual({
      text: `a\n${"x".repeat(LINE_CHARS)}…\nb`,
      cut: true,
      hiddenLines: 0,
      hiddenChars: 500,
    });
    const many = `${"y".repeat(100)}\n`.repeat(1_000);
    const clipped = clipText(many);
    expect(clipped.cut).toBe(true);
    expect(clipped.text.length).toBeLessThanOrEqual(HEAD_CHARS + 1_000);
  });

  test("chunks join back to the text, end at a line's end when one is near, and stay small", () => {
    const text = `${"a".repeat(CHUNK_CHARS * 2 + 7)}\nshort\n${"b\n".repeat(CHUNK_CHARS)}`;
    const chunks = textChunks(text);
    expect(chunks.join("")).toBe(text);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(CHUNK_CHARS);
    expect(chunks[2]?.startsWith(`${"a".repeat(7)}\nshort\nb\n`)).toBe(true);
    expect(chunks.slice(2).every((chunk) => chunk.endsWith("\n"))).toBe(true);
  });
});

describe("virtual window", () => {
  const offsets = prefixOffsets([100, 50, 200, 100, 100]);

  test("offsets are where rows start, the last one the total", () => {
    expect([...offsets]).toEqual([0, 100, 150, 350, 450, 550]);
    expect(rowAt(offsets, -10)).toBe(0);
    expect(rowAt(offsets, 149)).toBe(1);
    expect(rowAt(offsets, 150)).toBe(2);
    expect(rowAt(offsets, 10_000)).toBe(4);
  });

  test("the rows meeting the viewport plus the overscan are drawn", () => {
    expect(visibleRange(offsets, 160, 100, 0, false)).toEqual({ start: 2, end: 3 });
    expect(visibleRange(offsets, 160, 100, 60, false)).toEqual({ start: 1, end: 3 });
    expect(visibleRange(offsets, 160, 100, 200, false)).toEqual({ start: 0, end: 5 });
  });

  test("pinned, the last screenful is drawn whatever the scroll position says", () => {
    expect(visibleRange(offsets, 0, 150, 0, true)).toEqual({ start: 3, end: 5 });
  });

  test("no rows, nothing drawn", () => {
    expect(visibleRange(prefixOffsets([]), 0, 500, 100, true)).toEqual({ start: 0, end: 0 });
  });
});

describe("transcript rows", () => {
  const call: Message = {
    id: "a1",
    role: "assistant",
    content: [{ type: "tool_call", id: "c1", name: "ls", args: {} }],
  };
  const result = (id: string, callId: string): Message => ({
    id,
    role: "user",
    content: [{ type: "tool_result", tool_call_id: callId, content: { kind: "text", text: "x" } }],
  });

  test("a result whose call is shown is drawn in the call's card, not as a row", () => {
    const prompt: Message = { id: "u1", role: "user", content: [{ type: "text", text: "hi" }] };
    const index = indexMessages([prompt, call, result("r1", "c1")]);
    expect(index.rows.map((m) => m.id)).toEqual(["u1", "a1"]);
    expect(index.results.get("c1")?.content).toEqual({ kind: "text", text: "x" });
  });

  test("a result whose call was compacted away stays a row", () => {
    expect(indexMessages([result("r0", "gone"), call]).rows.map((m) => m.id)).toEqual(["r0", "a1"]);
  });
});

describe("tool arguments", () => {
  test("the target is the path or command, on one line", () => {
    expect(callTarget({ path: "src/a.ts", content: "x" })).toBe("src/a.ts");
    expect(callTarget({ command: "echo a\necho b" })).toBe("echo a …");
    expect(callTarget({ limit: 3 })).toBe("");
  });

  test("pairs show strings as they are and the rest as JSON", () => {
    expect(argPairs({ path: "<b>", n: 2, list: [1] })).toEqual([
      { k: "path", v: "<b>" },
      { k: "n", v: "2" },
      { k: "list", v: "[\n  1\n]" },
    ]);
  });

  test("streamed argument fragments parse only once they are a whole object", () => {
    expect(parsedArgs('{"pa')).toBeUndefined();
    expect(parsedArgs('{"path":"."}')).toEqual({ path: "." });
    expect(parsedArgs("[1]")).toBeUndefined();
  });
});

describe("safeImageSource", () => {
  test("only base64 raster images become data URLs", () => {
    expect(safeImageSource("image/png", "iVBORw0KGgo=")).toBe("data:image/png;base64,iVBORw0KGgo=");
    expect(safeImageSource("image/svg+xml", "PHN2Zz4=")).toBeUndefined();
    expect(safeImageSource("text/html", "PHNjcmlwdD4=")).toBeUndefined();
    expect(safeImageSource("image/png", 'x" onerror="alert(1)')).toBeUndefined();
  });
});
