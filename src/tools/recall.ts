/**
 * The `recall` tool (docs/architecture.md §6.6): pages through the exact original messages that a
 * compaction summarized. Each page is a header line, the messages as JSON lines (byte-for-
 * byte as stored), and a footer line naming the next page. Pages are bounded in bytes and
 * hold whole messages; a single message larger than a page is split by bytes (at UTF-8
 * character boundaries) across consecutive pages, and those pages say so.
 */
import { type Static, Type } from "@sinclair/typebox";
import type { SessionStore } from "../contracts/session-store.ts";
import type { Tool, ToolResult } from "../contracts/tool.ts";
import { readCompactedRange } from "../session/compaction/compacted-range.ts";

export const RecallParams = Type.Object({
  index: Type.Integer({ minimum: 0, description: "Compaction index, as named in the compaction summary." }),
  page: Type.Optional(Type.Integer({ minimum: 1, description: "1-based page number (default 1)." })),
});
export type RecallArgs = Static<typeof RecallParams>;

export const DEFAULT_RECALL_PAGE_BYTES = 24 * 1024;
const MIN_PAGE_BYTES = 64;

export interface RecallPage {
  /** Exact bytes of the messages' JSON lines on this page (a slice of one line when split). */
  body: string;
  /** 1-based message numbers on this page. */
  first: number;
  last: number;
  split?: { part: number; parts: number };
}

/** A UTF-8 continuation byte (10xxxxxx); past the end of the buffer there is none. */
function isContinuationByte(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

function splitByBytes(line: string, pageBytes: number): string[] {
  const bytes = Buffer.from(line);
  const parts: string[] = [];
  for (let start = 0; start < bytes.length; ) {
    let end = Math.min(start + pageBytes, bytes.length);
    // Never cut inside a multi-byte character: back off over continuation bytes (10xxxxxx).
    while (isContinuationByte(bytes[end])) end--;
    parts.push(bytes.toString("utf8", start, end));
    start = end;
  }
  return parts;
}

/** Packs JSON lines into pages of at most `pageBytes` bytes each. */
export function paginateLines(lines: readonly string[], pageBytes: number): RecallPage[] {
  const pages: RecallPage[] = [];
  let body = "";
  let size = 0;
  let first = 1;
  lines.forEach((line, i) => {
    const n = i + 1;
    const bytes = Buffer.byteLength(line);
    if (size > 0 && size + bytes > pageBytes) {
      pages.push({ body, first, last: n - 1 });
      body = "";
      size = 0;
    }
    if (bytes > pageBytes) {
      const parts = splitByBytes(line, pageBytes);
      for (const [k, part] of parts.entries()) {
        pages.push({ body: part, first: n, last: n, split: { part: k + 1, parts: parts.length } });
      }
      return;
    }
    if (size === 0) first = n;
    body += line;
    size += bytes;
  });
  if (size > 0) pages.push({ body, first, last: lines.length });
  return pages;
}

function fail(message: string): ToolResult {
  return { content: { kind: "error", message }, is_error: true };
}

export interface RecallToolOptions {
  pageBytes?: number;
}

export function createRecallTool(
  getStore: () => SessionStore,
  options: RecallToolOptions = {},
): Tool<typeof RecallParams> {
  const pageBytes = Math.max(MIN_PAGE_BYTES, options.pageBytes ?? DEFAULT_RECALL_PAGE_BYTES);
  return {
    name: "recall",
    description:
      "Read the exact original messages that a context compaction replaced with a summary. " +
      "`index` is the compaction index named in the summary; results are paged (`page`, 1-based). " +
      "Each page lists messages as JSON lines, oldest first.",
    parameters: RecallParams,
    isReadOnly: true,
    render(args) {
      return {
        kind: "kv",
        pairs: [
          { k: "compaction", v: String(args.index) },
          { k: "page", v: String(args.page ?? 1) },
        ],
      };
    },
    async execute(args) {
      const range = readCompactedRange(getStore(), args.index);
      if (!range.ok) {
        const valid =
          range.validIndexes.length > 0 ? range.validIndexes.join(", ") : "none (nothing was compacted)";
        return fail(`${range.message}. Valid compaction indexes: ${valid}.`);
      }
      const lines = range.messages.map((m) => `${JSON.stringify(m)}\n`);
      const pages = paginateLines(lines, pageBytes);
      const pageNo = args.page ?? 1;
      const page = pages[pageNo - 1];
      if (!page)
        return fail(`page ${pageNo} is out of range: compaction ${args.index} has ${pages.length} page(s).`);

      const total = lines.length;
      const what = page.split
        ? `message ${page.first} of ${total}, part ${page.split.part} of ${page.split.parts} (one message split by bytes; concatenate the parts)`
        : `messages ${page.first}–${page.last} of ${total}`;
      const header = `compaction ${args.index}, page ${pageNo} of ${pages.length} — ${what}, as JSON lines:`;
      const footer =
        pageNo < pages.length
          ? `[more: call recall with {"index": ${args.index}, "page": ${pageNo + 1}}]`
          : `[end of compaction ${args.index}]`;
      return { content: { kind: "text", text: `${header}\n${page.body}\n${footer}` }, is_error: false };
    },
  };
}
