import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compactSession } from "../../src/session/compaction/compact-session.ts";
import {
  DEFAULT_COMPACTION_CONFIG,
  loadCompactionConfig,
  validateKeepRecentTokens,
} from "../../src/session/compaction/compaction-config.ts";
import { deterministicDigest } from "../../src/session/compaction/deterministic-digest.ts";
import { withDeterministicFallback } from "../../src/session/compaction/summarizer.ts";
import { createSession } from "../../src/session/create-session.ts";
import { openSession } from "../../src/session/open-session.ts";
import type { CompactionEntry } from "../../src/types/session-entries.ts";
import { appendTurn } from "./conversation.ts";
import { sha256, tempHome, userText } from "./helpers.ts";

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => cleanup());

function textOf(message: { content: { type: string; text?: string }[] }): string {
  return message.content.map((b) => b.text ?? "").join("");
}

describe("compactSession", () => {
  test("appends a CompactionEntry and the live window becomes summary + kept messages", async () => {
    const store = createSession({ home, cwd: "/tmp/p" });
    for (let t = 1; t <= 4; t++) appendTurn(store, t);
    const before = store.liveWindow().messages;

    const result = await compactSession(store, { keepRecentTokens: 300 });
    if (!("compacted" in result) || !result.compacted) throw new Error(JSON.stringify(result));
    expect(result.index).toBe(0);
    expect(result.tokens_after).toBeLessThan(result.tokens_before);
    const entry = store.entries().at(-1) as CompactionEntry;
    expect(entry.type).toBe("compaction");
    expect(entry.message_range).toEqual(result.message_range);
    expect(entry.first_kept_entry_id).toBe(result.first_kept_entry_id);
    expect(result.message_range[0]).toBe(store.entries()[0]?.id as string);

    const window = store.liveWindow();
    expect(window.compaction_index).toBe(0);
    const [summary, ...kept] = window.messages;
    expect(summary?.role).toBe("user");
    expect(textOf(summary!)).toContain('call the `recall` tool with {"index": 0}');
    expect(textOf(summary!)).toContain(entry.summary);
    // The kept messages are exactly the tail of the previous window, never starting at a tool result.
    expect(kept).toEqual(before.slice(before.length - kept.length));
    expect(kept[0]?.content.some((b) => b.type === "tool_result")).toBe(false);
    expect(kept.length).toBeLessThan(before.length);

    // New messages after the compaction join the window; a reopen sees the same window.
    store.append(userText("after compaction"));
    const live = store.liveWindow();
    store.close();
    const reopened = openSession({ home, idOrPath: store.sessionId });
    if (!reopened.ok) throw new Error(reopened.error.message);
    expect(reopened.store.liveWindow()).toEqual(live);

    // A second compaction folds the first summary in and gets the next index.
    appendTurn(reopened.store, 5);
    appendTurn(reopened.store, 6);
    const second = await compactSession(reopened.store, { keepRecentTokens: 200 });
    if (!("compacted" in second) || !second.compacted) throw new Error(JSON.stringify(second));
    expect(second.index).toBe(1);
    const secondEntry = reopened.store.entries().at(-1) as CompactionEntry;
    expect(secondEntry.summary).toContain("## Earlier summary");
    expect(secondEntry.summary).toContain("Request 1: fix the parser");
    expect(second.message_range[0]).toBe(result.first_kept_entry_id);
    expect(reopened.store.liveWindow().compaction_index).toBe(1);
    reopened.store.close();
  });

  test("no_safe_cut leaves the file untouched", async () => {
    const store = createSession({ home, cwd: "/tmp/p" });
    appendTurn(store, 1);
    const hash = sha256(store.path);
    expect(await compactSession(store, { keepRecentTokens: 1_000_000 })).toEqual({
      compacted: false,
      reason: "no_safe_cut",
    });
    expect(sha256(store.path)).toBe(hash);
    store.close();
  });

  test("a throwing or empty compactor is INTERNAL_ERROR with nothing appended", async () => {
    const store = createSession({ home, cwd: "/tmp/p" });
    for (let t = 1; t <= 3; t++) appendTurn(store, t);
    const hash = sha256(store.path);
    const thrown = await compactSession(store, {
      keepRecentTokens: 100,
      summarizer: async () => {
        throw new Error("model offline");
      },
    });
    expect(thrown).toEqual({ error: { code: "INTERNAL_ERROR", message: "compactor failed: model offline" } });
    const empty = await compactSession(store, { keepRecentTokens: 100, summarizer: async () => "  " });
    expect("error" in empty && empty.error.code).toBe("INTERNAL_ERROR");
    expect(sha256(store.path)).toBe(hash);
    store.close();
  });

  test("a model summarizer is used when it works and falls back to the digest when it fails", async () => {
    const store = createSession({ home, cwd: "/tmp/p" });
    for (let t = 1; t <= 3; t++) appendTurn(store, t);
    const reasons: string[] = [];
    const seen: number[] = [];
    const failing = withDeterministicFallback(
      async (input) => {
        seen.push(input.messages.length);
        throw new Error("429 rate limited");
      },
      (r) => reasons.push(r),
    );
    const first = await compactSession(store, { keepRecentTokens: 200, summarizer: failing });
    expect("compacted" in first && first.compacted).toBe(true);
    expect(reasons).toEqual(["summarizer failed: 429 rate limited"]);
    expect(seen[0]).toBeGreaterThan(0);
    expect((store.entries().at(-1) as CompactionEntry).summary).toContain("## User requests");

    appendTurn(store, 4);
    appendTurn(store, 5);
    const working = withDeterministicFallback(
      async (input) => `model summary of ${input.messages.length}; prev=${input.previousSummary !== null}`,
    );
    const second = await compactSession(store, { keepRecentTokens: 200, summarizer: working });
    expect("compacted" in second && second.compacted).toBe(true);
    expect((store.entries().at(-1) as CompactionEntry).summary).toMatch(/^model summary of \d+; prev=true$/);
    store.close();
  });
});

describe("deterministic digest", () => {
  test("lists requests, files read and changed, commands with exit codes and the latest plan", () => {
    const store = createSession({ home, cwd: "/tmp/p" });
    appendTurn(store, 1, 1);
    appendTurn(store, 2, 1);
    const messages = store.liveWindow().messages;
    store.close();
    const digest = deterministicDigest({ messages, previousSummary: "PREVIOUS DIGEST" });
    expect(digest).toContain("## Earlier summary\nPREVIOUS DIGEST");
    expect(digest).toContain(
      "## User requests\n1. Request 1: fix the parser in src/p1.ts lorem ipsum\n2. Request 2:",
    );
    expect(digest).toContain("## Files read\n- src/p1.ts\n- src/p2.ts");
    expect(digest).toContain("## Files changed\n- src/p1.ts\n- src/p2.ts");
    expect(digest).toContain("## Commands run\n- `bun test p1` → exit 1\n- `bun test p2` → exit 1");
    expect(digest).toContain("## Latest plan / decisions\nPlan after turn 2: the parser now handles case 2.");
    expect(digest).not.toContain("Plan after turn 1");
  });

  test("long requests are trimmed and a call without a result says so", () => {
    const digest = deterministicDigest({
      messages: [
        { id: "1", role: "user", content: [{ type: "text", text: "z".repeat(5000) }] },
        {
          id: "2",
          role: "assistant",
          content: [{ type: "tool_call", id: "c", name: "bash", args: { command: "make" } }],
        },
      ],
      previousSummary: null,
    });
    expect(digest).toContain("more chars]");
    expect(digest.length).toBeLessThan(1500);
    expect(digest).toContain("- `make` → no result recorded");
    expect(digest).not.toContain("Earlier summary");
  });
});

describe("compaction config", () => {
  test("defaults without a file, values from config.json, defaults plus warnings for bad fields", () => {
    expect(loadCompactionConfig(home)).toEqual({ config: { ...DEFAULT_COMPACTION_CONFIG }, warnings: [] });

    writeFileSync(
      join(home, "config.json"),
      JSON.stringify({
        other: 1,
        compaction: { enabled: false, reserve_ratio: 0.7, keep_recent_tokens: 5000, summarizer: "model" },
      }),
    );
    expect(loadCompactionConfig(home)).toEqual({
      config: { enabled: false, reserve_ratio: 0.7, keep_recent_tokens: 5000, summarizer: "model" },
      warnings: [],
    });

    writeFileSync(
      join(home, "config.json"),
      JSON.stringify({ compaction: { reserve_ratio: 3, keep_recent_tokens: -1, summarizer: "gpt" } }),
    );
    const bad = loadCompactionConfig(home);
    expect(bad.config).toEqual({ ...DEFAULT_COMPACTION_CONFIG });
    expect(bad.warnings).toHaveLength(3);
    expect(bad.warnings.join("\n")).toContain(
      "compaction.keep_recent_tokens must be a positive integer, got -1",
    );

    writeFileSync(join(home, "config.json"), "{ not json");
    const broken = loadCompactionConfig(home);
    expect(broken.config).toEqual({ ...DEFAULT_COMPACTION_CONFIG });
    expect(broken.warnings[0]).toContain("not valid JSON");
    expect(readFileSync(join(home, "config.json"), "utf8")).toBe("{ not json");
  });

  test("validateKeepRecentTokens accepts only positive integers", () => {
    expect(validateKeepRecentTokens(20000)).toEqual({ ok: true, value: 20000 });
    for (const bad of [0, -5, 1.5, "100", null, Number.NaN, Number.POSITIVE_INFINITY]) {
      const check = validateKeepRecentTokens(bad);
      expect(check.ok).toBe(false);
      if (!check.ok) expect(check.error.code).toBe("INVALID_REQUEST");
    }
  });
});
