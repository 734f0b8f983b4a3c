/**
 * The structured completion report a parent receives when one of its runs ends (docs/protocol.md
 * §10.4). It names the run and carries its final text — the child's output, which is as
 * untrusted as any model text — but never the task.
 */
import type { JobRecord, RunRecord } from "./job-record.ts";

export function completionReport(job: JobRecord, run: RunRecord): string {
  const attrs = [
    `job_id="${job.job_id}"`,
    `run_id="${run.run_id}"`,
    `agent_id="${run.agent_id}"`,
    `alias="${run.alias}"`,
    `state="${run.state}"`,
  ].join(" ");
  const lines = [`<subagent_report ${attrs}>`, `Task name: ${inert(run.name)}`];
  if (run.error !== undefined) lines.push(`Error: ${inert(run.error)}`);
  lines.push("Final text:", inert(run.final_text ?? "(none)"), "</subagent_report>");
  return lines.join("\n");
}

/** The child's own words cannot close the report (and forge text after it) or open another. */
function inert(text: string): string {
  return text.replace(/<(\/?)(subagent_report)/gi, "&lt;$1$2");
}
