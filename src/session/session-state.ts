/**
 * Mode, model, sandbox mode and reasoning level as last recorded in a session: the header's starting mode
 * and model, then each change entry in chain order.
 */
import type { SessionState } from "../contracts/session-store.ts";
import type { SessionEntry, SessionHeader } from "../types/session-entries.ts";

export function initialState(header: SessionHeader): SessionState {
  const state: SessionState = { reasoning: {} };
  if (header.mode !== undefined) state.mode = header.mode;
  if (header.model !== undefined) state.model = header.model;
  return state;
}

/** Folds one entry into `state` (mutates it): the newest change of each kind wins. */
export function applyToState(state: SessionState, entry: SessionEntry): void {
  if (entry.type === "mode_change") state.mode = entry.mode;
  else if (entry.type === "sandbox_change") state.sandbox = entry.mode;
  else if (entry.type === "model_change") state.model = entry.model;
  else if (entry.type === "reasoning_change") state.reasoning[entry.model] = entry.effort;
}

export function stateAt(
  header: SessionHeader,
  entries: readonly SessionEntry[],
  endIndex = entries.length - 1,
): SessionState {
  const state = initialState(header);
  for (const entry of entries.slice(0, endIndex + 1)) applyToState(state, entry);
  return state;
}
