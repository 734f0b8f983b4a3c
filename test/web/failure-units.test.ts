/**
 * The web's failure helpers without a browser: where a failure is drawn (after its message, or
 * the nearest row shown before it), what Retry sends, and the one state the header and the
 * agent row both show.
 */
import { describe, expect, test } from "bun:test";
import { emptySnapshot } from "../../src/snapshot/agent-snapshot.ts";
import type { Message } from "../../src/types/messages.ts";
import type { TurnFailure } from "../../src/types/turn-failures.ts";
import { failuresByRow, retryPrompt } from "../../web/src/views/failures/failure-rows.ts";
import { turnState } from "../../web/src/views/failures/turn-state.ts";

const prompt: Message = {
  id: "m1",
  role: "user",
  content: [
    { type: "text", text: "fix it" },
    { type: "image", data: "AAAA", mime_type: "image/png" },
  ],
};
const call: Message = {
  id: "m2",
  role: "assistant",
  content: [{ type: "tool_call", id: "c1", name: "ls", args: {} }],
};
const result: Message = {
  id: "m3",
  role: "user",
  content: [
    { type: "tool_result", tool_call_id: "c1", content: { kind: "text", text: "a\nb" }, is_error: false },
  ],
};
const failure = (after: string): TurnFailure => ({
  id: `f-${after}`,
  ts: 1,
  kind: "failed",
  code: "PROVIDER_ERROR",
  message: "boom",
  after_message_id: after,
  prompt_message_id: "m1",
});

describe("failure rows", () => {
  test("a failure after a tool result shown in its call's card is drawn after the call's row", () => {
    const byRow = failuresByRow([prompt, call, result], [prompt, call], [failure("m3"), failure("gone")]);
    expect([...byRow.keys()]).toEqual(["m2"]);
    expect(byRow.get("m2")?.map((f) => f.id)).toEqual(["f-m3"]);
  });

  test("Retry sends the prompt's text and images", () => {
    expect(retryPrompt([prompt, call], failure("m2"))).toEqual({
      message: "fix it",
      images: [{ type: "image", data: "AAAA", mime_type: "image/png" }],
    });
    expect(retryPrompt([call], failure("m2"))).toBeUndefined();
  });
});

describe("turn state", () => {
  test("a retry in progress, then a failure only while it ends the transcript and no turn runs", () => {
    const base = { ...emptySnapshot(), live_window: { messages: [prompt], failures: [failure("m1")] } };
    expect(turnState(base)).toEqual({ kind: "failed", short: "last turn failed", long: "last turn failed" });
    expect(turnState({ ...base, turn_id: "t2" })).toBeUndefined();
    expect(
      turnState({ ...base, live_window: { ...base.live_window, messages: [prompt, call] } }),
    ).toBeUndefined();
    const retrying = turnState({
      ...base,
      turn_id: "t2",
      retry: { attempt: 2, max_attempts: 4, delay_ms: 1400, reason: "connection refused" },
    });
    expect(retrying).toEqual({
      kind: "retrying",
      short: "retrying 2/4",
      long: "retrying 2/4 in 1.4 s: connection refused",
    });
  });
});
