import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { SessionStore } from "../../src/contracts/session-store.ts";
import type { ToolContext } from "../../src/contracts/tool.ts";
import { compactSession } from "../../src/session/compaction/compact-session.ts";
import { createSession } from "../../src/session/create-session.ts";
import { forkSession } from "../../src/session/fork-session.ts";
import { openSession } from "../../src/session/open-session.ts";
import { createRecallTool } from "../../src/tools/recall.ts";
import type { CompactionEntry, SessionEntry } from "../../src/types/session-entries.ts";
import { appendTurn } from "./conversation.ts";
import { tempHome, userText } from "./helpers.ts";

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => cleanup());

const ctx: ToolContext = {
  cwd: "/tmp/p",
  signal: new AbortController().signal,
  toolCallId: "call_recall",
  askUser: async () => null,
};

/** The original bytes: the messages of `range` as JSON lines, read back from the file itself. */
function storedRangeLines(path: string, range: [string, string]): string {
  const entries = readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => JSON.parse(l) as SessionEntry);
  const from = entries.findIndex((e) => e.id === range[0]);
  const to = entries.findIndex((e) => e.id === range[1]);
  return entries
    .slice(from, to + 1)
    .flatMap((e) =>
      e.type === "message" || e.type === "tool_result" ? [`${JSON.stringify(e.message)}\n`] : [],
    )
    .join("");
}

async function readAllPages(store: SessionStore, index: number, pageBytes: number) {
  const tool = createRecallTool(() => store, { pageBytes });
  const pages: { header: string; body: string; footer: string }[] = [];
  for (let page = 1; ; page++) {
    const result = await tool.execute({ index, page }, ctx);
    if (result.is_error || result.content.kind !== "text") throw new Error(JSON.stringify(result.content));
    const text = result.content.text;
    const header = text.slice(0, text.indexOf("\n"));
    const footer = text.slice(text.lastIndexOf("\n") + 1);
    pages.push({ header, body: text.slice(header.length + 1, text.lastIndexOf("\n")), footer });
    if (footer === `[end of compaction ${index}]`) return pages;
    expect(footer).toBe(`[more: call recall with {"index": ${index}, "page": ${page + 1}}]`);
  }
}

async function compacted(store: SessionStore, keep: number): Promise<CompactionEntry> {
  const result = await compactSession(store, { keepRecentTokens: keep });
  if (!("compacted" in result) || !result.compacted) throw new Error(JSON.stringify(result));
  return store.entries().at(-1) as CompactionEntry;
}

describe("recall tool", () => {
  test("pages reproduce the compacted messages byte for byte, whole messages per bounded page", async () => {
    const store = createSession({ home, cwd: "/tmp/p" });
    for (let t = 1; t <= 6; t++) appendTurn(store, t);
    const entry = await compacted(store, 400);
    const expected = storedRangeLines(store.path, entry.message_range);

    const pageBytes = 2048;
    const pages = await readAllPages(store, 0, pageBytes);
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.map((p) => p.body).join("")).toBe(expected);
    const total = expected.split("\n").length - 1;
    pages.forEach((p, i) => {
      expect(Buffer.byteLength(p.body)).toBeLessThanOrEqual(pageBytes);
      expect(p.body.endsWith("\n")).toBe(true);
      expect(p.header).toStartWith(`compaction 0, page ${i + 1} of ${pages.length} — messages `);
      expect(p.header).toContain(` of ${total}`);
    });
    expect((await createRecallTool(() => store).execute({ index: 0 }, ctx)).content).toMatchObject({
      kind: "text",
    });
    expect(createRecallTool(() => store).isReadOnly).toBe(true);
    store.close();
  });

  test("a message larger than a page is split by bytes at character boundaries, and the pages say so", async () => {
    const store = createSession({ home, cwd: "/tmp/p" });
    store.append(userText(`huge: ${"héllo wörld 🙂 ".repeat(400)}`));
    store.append(userText("small one"));
    appendTurn(store, 1);
    const entry = await compacted(store, 100);
    const expected = storedRangeLines(store.path, entry.message_range);

    const pages = await readAllPages(store, 0, 1000);
    expect(pages.map((p) => p.body).join("")).toBe(expected);
    const splitPages = pages.filter((p) => p.header.includes("split by bytes"));
    expect(splitPages.length).toBeGreaterThan(5);
    expect(splitPages[0]?.header).toContain(`message 1 of `);
    expect(splitPages[0]?.header).toContain(`part 1 of ${splitPages.length}`);
    for (const p of pages) {
      expect(Buffer.byteLength(p.body)).toBeLessThanOrEqual(1000);
      expect(p.body).not.toContain("\uFFFD");
    }
    store.close();
  });

  test("unknown index and page out of range are errors that say what is valid", async () => {
    const store = createSession({ home, cwd: "/tmp/p" });
    const tool = createRecallTool(() => store);
    const none = await tool.execute({ index: 0 }, ctx);
    expect(none).toEqual({
      is_error: true,
      content: {
        kind: "error",
        message: "no compaction with index 0. Valid compaction indexes: none (nothing was compacted).",
      },
    });
    for (let t = 1; t <= 6; t++) appendTurn(store, t);
    await compacted(store, 1500);
    for (let t = 7; t <= 9; t++) appendTurn(store, t);
    await compacted(store, 1500);
    const unknown = await tool.execute({ index: 5 }, ctx);
    expect(unknown.is_error).toBe(true);
    expect(unknown.content).toEqual({
      kind: "error",
      message: "no compaction with index 5. Valid compaction indexes: 0, 1.",
    });
    const outOfRange = await tool.execute({ index: 1, page: 99 }, ctx);
    expect(outOfRange.is_error).toBe(true);
    expect(outOfRange.content.kind === "error" && outOfRange.content.message).toMatch(
      /^page 99 is out of range: compaction 1 has 1 page\(s\)\.$/,
    );
    store.close();
  });

  test("in a fork, recall reads compacted ranges from the source session", async () => {
    const store = createSession({ home, cwd: "/tmp/p" });
    for (let t = 1; t <= 5; t++) appendTurn(store, t);
    const entry = await compacted(store, 400);
    appendTurn(store, 6);
    const expected = storedRangeLines(store.path, entry.message_range);
    const fork = forkSession(store, store.headId() as string);
    if (!fork.ok) throw new Error(fork.error.message);
    store.close();

    const opened = openSession({ home, idOrPath: fork.data.session_id });
    if (!opened.ok) throw new Error(opened.error.message);
    expect(opened.store.liveWindow().compaction_index).toBe(0);
    const pages = await readAllPages(opened.store, 0, 24 * 1024);
    expect(pages.map((p) => p.body).join("")).toBe(expected);
    opened.store.close();
  });
});
