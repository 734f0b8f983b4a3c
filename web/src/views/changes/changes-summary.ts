/** The line above the files: what they are compared with, in words. */
import type { AgentChangesResult } from "../../../../src/types/agent-changes.ts";

export function changesSummary(changes: AgentChangesResult): string {
  const count = `${changes.files.length} file${changes.files.length === 1 ? "" : "s"} changed`;
  const cut = changes.truncated ? " (cut: more changed than the daemon returns)" : "";
  const baseline = changes.baseline;
  switch (baseline.kind) {
    case "agent_start":
      return `${count} since the agent started (${new Date(baseline.recorded_at).toLocaleString()})${cut}`;
    case "workspace":
      return baseline.retired
        ? `${count} on ${baseline.branch} (workspace retired: its branch is the review)${cut}`
        : `${count} in workspace ${baseline.branch} since it left ${baseline.base.slice(0, 10)}, uncommitted work included${cut}`;
    case "none":
      return baseline.message;
  }
}
