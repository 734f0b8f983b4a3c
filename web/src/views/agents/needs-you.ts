/**
 * When an agent needs the user: it waits for a permission or UI answer, it finished a turn
 * nobody was looking at, or it failed. Pure decisions, so the rules are tested without a
 * browser; the tracker (needs-you-tracker.ts) feeds them the registry's status changes.
 * Progress (thinking, streaming, a tool running) never needs the user.
 */
import type { RuntimeState } from "../../../../src/types/agent-info.ts";
import type { AgentStatus } from "../../../../src/types/agent-state.ts";

export type NeedsYou = "waiting" | "finished" | "failed";

export interface AgentState {
  status: AgentStatus;
  runtime_state: RuntimeState;
}

const BUSY: ReadonlySet<AgentStatus> = new Set(["streaming", "compacting"]);

export function isWaiting(state: AgentState): boolean {
  return state.status === "waiting_for_permission" || state.status === "waiting_for_ui";
}

export function isFailed(state: AgentState): boolean {
  return state.runtime_state === "failed" || state.status === "error";
}

/**
 * The signal raised by the change `prev` → `next`, if any. `lookedAt`: the agent is the one
 * on screen in a visible tab (then finishing is not news; waiting and failing still are).
 */
export function signalOnChange(
  prev: AgentState | undefined,
  next: AgentState,
  lookedAt: boolean,
): NeedsYou | undefined {
  if (isWaiting(next)) return prev !== undefined && prev.status === next.status ? undefined : "waiting";
  if (isFailed(next)) return prev !== undefined && isFailed(prev) ? undefined : "failed";
  if (next.status === "idle" && prev !== undefined && (BUSY.has(prev.status) || isWaiting(prev)))
    return lookedAt ? undefined : "finished";
  return undefined;
}

/**
 * Whether a signal raises a browser notification: only when the user turned them on (and the
 * browser granted it), and never for the agent they are looking at.
 */
export function shouldNotify(
  signal: NeedsYou | undefined,
  options: { permission: NotificationPermission | "unsupported"; enabled: boolean; lookedAt: boolean },
): boolean {
  return signal !== undefined && options.enabled && options.permission === "granted" && !options.lookedAt;
}

/** The tab title with the number of agents that need the user in front. */
export function titleWithCount(base: string, count: number): string {
  return count > 0 ? `(${count}) ${base}` : base;
}

export function signalText(signal: NeedsYou): string {
  switch (signal) {
    case "waiting":
      return "is waiting for you";
    case "finished":
      return "finished";
    case "failed":
      return "failed";
  }
}
