/**
 * The failed and interrupted turns the live window shows (src/types/turn-failures.ts): a
 * `turn_failed` adds one, a compaction keeps those still anchored to a kept message, and at
 * most MAX_WINDOW_FAILURES are kept, so a runtime failing turn after turn stays bounded.
 */
import type { LiveWindow } from "../types/agent-events.ts";
import type { TurnFailure } from "../types/turn-failures.ts";

export const MAX_WINDOW_FAILURES = 50;

export function withFailure(window: LiveWindow, failure: TurnFailure): LiveWindow {
  const others = (window.failures ?? []).filter((f) => f.id !== failure.id);
  return { ...window, failures: [...others, failure].slice(-MAX_WINDOW_FAILURES) };
}

/** Keeps the failures drawn after a message `window` still holds; no failures is no field. */
export function anchoredFailures(
  window: LiveWindow,
  failures: readonly TurnFailure[] | undefined,
): LiveWindow {
  const { failures: _old, ...rest } = window;
  if (failures === undefined || failures.length === 0) return rest;
  const ids = new Set(window.messages.map((m) => m.id));
  const kept = failures.filter((f) => f.after_message_id !== undefined && ids.has(f.after_message_id));
  return kept.length > 0 ? { ...rest, failures: kept.slice(-MAX_WINDOW_FAILURES) } : rest;
}
