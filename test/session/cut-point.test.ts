import { describe, expect, test } from "bun:test";
import { findCutPoint, safeCutBoundaries } from "../../src/session/compaction/cut-point.ts";
import { contextTokens, estimateTokens, IMAGE_TOKENS } from "../../src/session/compaction/token-estimate.ts";
import type { ConversationEntry } from "../../src/session/live-window.ts";
import type { SessionEntry } from "../../src/types/session-entries.ts";
import { assistantText, toolResult, userText } from "./helpers.ts";

/** Gives builder payloads ids so they look like stored window entries. */
function asEntries(...rows: ReturnType<typeof userText>[]): ConversationEntry[] {
  return rows.map(
    (row, i) =>
      ({
        ...row,
        id: `ent_${i}`,
        parent_id: i ? `ent_${i - 1}` : null,
        ts: i,
      }) as SessionEntry as ConversationEntry,
  );
}

const big = (n: number) => "w".repeat(n * 4); // n tokens

describe("token estimates", () => {
  test("chars/4 for text and tool data, a fixed cost per image", () => {
    expect(estimateTokens({ id: "m", role: "user", content: [{ type: "text", text: big(10) }] })).toBe(10);
    expect(
      estimateTokens({
        id: "m",
        role: "user",
        content: [{ type: "image", data: "x".repeat(99999), mime_type: "image/png" }],
      }),
    ).toBe(IMAGE_TOKENS);
  });

  test("provider usage covers the prefix up to its message; later messages are estimated", () => {
    const messages = asEntries(userText(big(100)), assistantText(big(50)), userText(big(7))).map(
      (e) => e.message,
    );
    expect(contextTokens(messages)).toBe(157);
    const usage = { input: 1000, output: 20, cache_read: 500 };
    expect(contextTokens(messages, { message_id: messages[1]!.id, usage })).toBe(1520 + 7);
    expect(contextTokens(messages, { message_id: "gone", usage })).toBe(157);
  });
});

describe("findCutPoint", () => {
  test("keeps the newest messages worth at least keepRecentTokens", () => {
    const window = asEntries(
      userText(big(100)),
      assistantText(big(100)),
      userText(big(100)),
      assistantText(big(100)),
    );
    expect(findCutPoint(window, 150)).toEqual({ ok: true, index: 2 });
    expect(findCutPoint(window, 100)).toEqual({ ok: true, index: 3 });
  });

  test("parallel tool calls are never separated from their results", () => {
    const window = asEntries(
      userText(big(10)), // 0
      assistantText("", [
        { id: "a", name: "read", args: { path: "x" } },
        { id: "b", name: "read", args: { path: "y" } },
        { id: "c", name: "bash", args: { command: "ls" } },
      ]), // 1
      toolResult("a", big(100)), // 2
      toolResult("b", big(100)), // 3
      toolResult("c", big(100)), // 4
      assistantText(big(10)), // 5
    );
    expect(safeCutBoundaries(window)).toEqual([false, true, false, false, false, true]);
    // Keeping ~150 tokens would cut inside the results: the cut moves back to the assistant message.
    expect(findCutPoint(window, 150)).toEqual({ ok: true, index: 1 });
    expect(findCutPoint(window, 5)).toEqual({ ok: true, index: 5 });
  });

  test("a message recorded while calls still await later results is not a safe cut", () => {
    const window = asEntries(
      userText("start"),
      assistantText("", [
        { id: "a", name: "bash", args: { command: "sleep 1" } },
        { id: "b", name: "bash", args: { command: "sleep 2" } },
      ]),
      toolResult("a", big(50)),
      userText("steer while b runs"),
      toolResult("b", big(50)),
      assistantText(big(50)),
    );
    const safe = safeCutBoundaries(window);
    expect(safe[3]).toBe(false);
    expect(safe[5]).toBe(true);
    expect(findCutPoint(window, 80)).toEqual({ ok: true, index: 1 });
  });

  test("an unanswered call (aborted turn) does not block later cuts", () => {
    const window = asEntries(
      userText(big(10)),
      assistantText("", [{ id: "never", name: "bash", args: { command: "x" } }]),
      userText(big(100)),
      assistantText(big(100)),
    );
    expect(findCutPoint(window, 150)).toEqual({ ok: true, index: 2 });
  });

  test("no_safe_cut when the window is too small or only tool results could be cut", () => {
    expect(findCutPoint(asEntries(userText(big(10)), assistantText(big(10))), 1000)).toEqual({
      ok: false,
      reason: "no_safe_cut",
    });
    const onlyResults = asEntries(
      assistantText("", [
        { id: "a", name: "read", args: { path: "x" } },
        { id: "b", name: "read", args: { path: "y" } },
      ]),
      toolResult("a", big(100)),
      toolResult("b", big(100)),
    );
    expect(findCutPoint(onlyResults, 50)).toEqual({ ok: false, reason: "no_safe_cut" });
    expect(findCutPoint([], 1)).toEqual({ ok: false, reason: "no_safe_cut" });
  });
});
