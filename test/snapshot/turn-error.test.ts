/** Which error failed a turn: only the one right before its turn_end; earlier ones are warnings. */
import { expect, test } from "bun:test";
import { TurnErrorWatch } from "../../src/snapshot/turn-error.ts";
import type { AgentEvent } from "../../src/types/catalog.ts";

const warning: AgentEvent = {
  type: "error",
  code: "INVALID_REQUEST",
  message: "grants file not trusted",
  fatal: false,
};
const failure: AgentEvent = { type: "error", code: "PROVIDER_ERROR", message: "overloaded", fatal: false };
const delta: AgentEvent = {
  type: "message_delta",
  message_id: "m",
  block_index: 0,
  kind: "text",
  text_delta: "x",
};
const end: AgentEvent = { type: "turn_end", turn_id: "t", usage: { input: 0, output: 0 } };

test("a warning mid-turn does not fail the turn; the error right before turn_end does", () => {
  const watch = new TurnErrorWatch();
  for (const e of [warning, delta]) expect(watch.event(e)).toBeUndefined();
  expect(watch.event(end)).toBeUndefined();
  expect(watch.event(failure)).toBeUndefined();
  expect(watch.event(end)).toBe(failure);
  // The next turn starts clean.
  expect(watch.event(end)).toBeUndefined();
});
