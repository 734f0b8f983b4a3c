/**
 * Reads a subagent's completion report (src/daemon/jobs/completion-report.ts), which reaches its
 * parent as a user message, so the transcript can show it as a card instead of the tagged text.
 * Only the exact shape the daemon writes is read; anything else stays a plain message.
 */
import type { RunState } from "../../../../src/types/subagent-jobs.ts";

export interface SubagentReport {
  alias: string;
  agentId: string;
  state: RunState;
  taskName: string;
  error?: string;
  finalText: string;
}

const SHAPE =
  /^<subagent_report ((?:[a-z_]+="[^"]*" ?)+)>\nTask name: ([\s\S]*?)\n(?:Error: ([\s\S]*?)\n)?Final text:\n([\s\S]*)\n<\/subagent_report>$/;
const ATTRIBUTE = /([a-z_]+)="([^"]*)"/g;
const STATES: readonly RunState[] = [
  "queued",
  "starting",
  "active",
  "completed",
  "failed",
  "timed_out",
  "cancelled",
  "interrupted",
];

export function parseSubagentReport(text: string): SubagentReport | undefined {
  const match = SHAPE.exec(text);
  if (match === null) return undefined;
  const attributes = new Map<string, string>();
  for (const [, key, value] of (match[1] ?? "").matchAll(ATTRIBUTE)) {
    if (key !== undefined && value !== undefined) attributes.set(key, value);
  }
  const state = STATES.find((s) => s === attributes.get("state"));
  const alias = attributes.get("alias");
  if (state === undefined || alias === undefined) return undefined;
  const error = match[3];
  return {
    alias,
    agentId: attributes.get("agent_id") ?? "",
    state,
    taskName: restored(match[2] ?? ""),
    ...(error !== undefined ? { error: restored(error) } : {}),
    finalText: restored(match[4] ?? ""),
  };
}

/** How the run ended, in words. */
export function outcomeLabel(state: RunState): string {
  switch (state) {
    case "completed":
      return "finished";
    case "failed":
      return "failed";
    case "timed_out":
      return "timed out";
    case "cancelled":
      return "was cancelled";
    case "interrupted":
      return "was interrupted";
    case "queued":
    case "starting":
    case "active":
      return "is still running";
  }
}

/** The daemon defuses the child's own report tags (`&lt;subagent_report`); shown as written. */
function restored(text: string): string {
  return text.replace(/&lt;(\/?subagent_report)/gi, "<$1");
}
