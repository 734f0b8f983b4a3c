/** An agent's status in people's words: the protocol's `waiting_for_permission` is not one. */
import type { AgentStatus } from "../../../../src/types/agent-state.ts";

export function statusLabel(status: AgentStatus): string {
  switch (status) {
    case "idle":
      return "idle";
    case "streaming":
      return "working";
    case "waiting_for_permission":
      return "waiting for permission";
    case "waiting_for_ui":
      return "waiting for an answer";
    case "compacting":
      return "compacting";
    case "error":
      return "error";
  }
}
