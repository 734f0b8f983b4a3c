/** Mode, model and reasoning level as last recorded in a session's chain. */
import type { SessionEntry, SessionState } from "../contracts/session-store.ts";

export function emptyState(): SessionState {
  return { reasoning: {} };
}

/** Folds one entry into `state` (mutates it): the newest change of each kind wins. */
export function applyToState(state: SessionState, entry: SessionEntry): void {
  if (entry.type === "mode_change") state.mode = entry.mode;
  else if (entry.type === "model_change") state.model = entry.model;
  else if (entry.type === "reasoning_change") state.reasoning[entry.model] = entry.effort;
}

export function stateAt(entries: readonly SessionEntry[], endIndex = entries.length - 1): SessionState {
  const state = emptyState();
  for (let i = 0; i <= endIndex; i++) applyToState(state, entries[i] as SessionEntry);
  return state;
}
