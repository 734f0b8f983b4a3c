/**
 * Failed turns and retries in the one projection (src/snapshot): `turn_failed` adds a failure to
 * the live window, `turn_retry` shows the retry until the turn moves on, a compaction keeps the
 * failures still anchored, and `sync` carries both, so a client rebuilt from it sees the same.
 */
import { describe, expect, test } from "bun:test";
import { emptySnapshot, snapshotFromSync, syncFromSnapshot } from "../../src/snapshot/agent-snapshot.ts";
import { applyEvents } from "../../src/snapshot/apply-event.ts";
import { MAX_WINDOW_FAILURES } from "../../src/snapshot/turn-failures.ts";
import type { AgentEvent } from "../../src/types/catalog.ts";
import type { Message } from "../../src/types/messages.ts";
import type { TurnFailure } from "../../src/types/turn-failures.ts";

const user = (id: string, text: string): Message => ({ id, role: "user", content: [{ type: "text", text }] });

const failure = (id: string, after: string): TurnFailure => ({
  id,
  ts: 1,
  kind: "failed",
  code: "PROVIDER_ERROR",
  message: "mock chat at http://127.0.0.1:1/v1: 401 unauthorized",
  turn_id: "turn_1",
  after_message_id: after,
  prompt_message_id: after,
});

const retry: AgentEvent = {
  type: "turn_retry",
  seq: 3,
  attempt: 2,
  max_attempts: 4,
  delay_ms: 1400,
  reason: "connection refused",
};

describe("failed turns in the snapshot", () => {
  test("turn_failed puts the failure in the live window, and sync carries it", () => {
    const s = applyEvents(emptySnapshot(), [
      { type: "turn_start", seq: 1, turn_id: "turn_1" },
      { type: "message_complete", seq: 2, message_id: "m1", message: user("m1", "hi") },
      retry,
      { type: "turn_failed", seq: 4, failure: failure("f1", "m1") },
      { type: "turn_end", seq: 5, turn_id: "turn_1" },
    ]);
    expect(s.live_window.failures).toEqual([failure("f1", "m1")]);
    expect(s.retry).toBeUndefined();
    expect(snapshotFromSync(syncFromSnapshot(s))).toEqual(s);
  });

  test("a retry shows until the next delta, and sync carries it meanwhile", () => {
    const waiting = applyEvents(emptySnapshot(), [
      { type: "turn_start", seq: 1, turn_id: "turn_1" },
      { ...retry, seq: 2 },
    ]);
    expect(waiting.retry).toEqual({
      attempt: 2,
      max_attempts: 4,
      delay_ms: 1400,
      reason: "connection refused",
    });
    expect(syncFromSnapshot(waiting).retry).toEqual(waiting.retry);
    expect(snapshotFromSync(syncFromSnapshot(waiting))).toEqual(waiting);
    const streaming = applyEvents(waiting, [
      { type: "message_delta", seq: 3, message_id: "m2", block_index: 0, kind: "text", text_delta: "ok" },
    ]);
    expect(streaming.retry).toBeUndefined();
    const ended = applyEvents(waiting, [{ type: "turn_end", seq: 3, turn_id: "turn_1" }]);
    expect(ended.retry).toBeUndefined();
  });

  test("a compaction keeps only the failures drawn after a kept message", () => {
    const s = applyEvents(emptySnapshot(), [
      { type: "message_complete", seq: 1, message_id: "m1", message: user("m1", "old") },
      { type: "turn_failed", seq: 2, failure: failure("f1", "m1") },
      { type: "message_complete", seq: 3, message_id: "m2", message: user("m2", "kept") },
      { type: "turn_failed", seq: 4, failure: failure("f2", "m2") },
      {
        type: "compaction",
        seq: 5,
        index: 0,
        tokens_before: 100,
        tokens_after: 10,
        first_kept_entry_id: "e2",
        message_range: ["e0", "e1"],
        summary_message: user("sum", "summary"),
        first_kept_message_id: "m2",
      },
    ]);
    expect(s.live_window.messages.map((m) => m.id)).toEqual(["sum", "m2"]);
    expect(s.live_window.failures?.map((f) => f.id)).toEqual(["f2"]);
  });

  test("the window keeps at most MAX_WINDOW_FAILURES failures, the newest", () => {
    const events: AgentEvent[] = [
      { type: "message_complete", seq: 1, message_id: "m1", message: user("m1", "x") },
    ];
    for (let i = 0; i < MAX_WINDOW_FAILURES + 5; i++)
      events.push({ type: "turn_failed", seq: i + 2, failure: failure(`f${i}`, "m1") });
    const s = applyEvents(emptySnapshot(), events);
    expect(s.live_window.failures).toHaveLength(MAX_WINDOW_FAILURES);
    expect(s.live_window.failures?.at(-1)?.id).toBe(`f${MAX_WINDOW_FAILURES + 4}`);
  });
});
