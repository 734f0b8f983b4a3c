/**
 * The sanitized activity overview (docs/protocol.md §11.2 `agent_activity`): a coarse phase per
 * agent, derived from its events and broadcast to every connection when it changes. It carries a
 * phase, the status and at most a tool's name — never prompts, model text, tool arguments or
 * results, paths or transcripts.
 */
import type { AgentEvent } from "../../types/catalog.ts";
import type { ActivityPhase } from "../../types/orchestrator-events.ts";

export interface Activity {
  phase: ActivityPhase;
  tool_name?: string;
}

/** Tool names come from the tool registry; anything else the model made up is left out. */
const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** The activity after `event`, or undefined when the event does not change it. */
export function nextActivity(current: Activity, event: AgentEvent): Activity | undefined {
  switch (event.type) {
    case "turn_start":
    case "tool_result":
      return { phase: "thinking" };
    case "message_delta":
      return { phase: event.kind === "thinking" ? "thinking" : "streaming" };
    case "tool_call":
      return TOOL_NAME.test(event.name) ? { phase: "tool", tool_name: event.name } : { phase: "tool" };
    case "permission_request":
    case "ui_request":
      return { phase: "waiting" };
    case "turn_retry":
      return { phase: "retrying" };
    // A failed turn stays the overview's phase until the next turn starts.
    case "turn_failed":
      return { phase: "error" };
    case "status":
      switch (event.status) {
        case "idle":
          return current.phase === "error" ? undefined : { phase: "idle" };
        case "error":
          return { phase: "error" };
        case "compacting":
          return { phase: "compacting" };
        case "waiting_for_permission":
        case "waiting_for_ui":
          return { phase: "waiting" };
        case "streaming":
          // A status with a detail during a turn is the provider retrying (runtime.onRetry).
          if (event.detail !== undefined) return { phase: "retrying" };
          return current.phase === "idle" || current.phase === "waiting" || current.phase === "compacting"
            ? { phase: "thinking" }
            : undefined;
      }
      return undefined;
    default:
      return undefined;
  }
}

export function sameActivity(a: Activity, b: Activity): boolean {
  return a.phase === b.phase && a.tool_name === b.tool_name;
}
