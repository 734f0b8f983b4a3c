/** Handle resolution for the subagent commands: every handle of a command, or NOT_FOUND. */
import type { WireError } from "../../wire/errors.ts";
import type { JobCatalog, Resolved, RunRef } from "./job-catalog.ts";

/** Every handle or none: one unknown handle fails the whole command. */
export function resolveAll(
  catalog: JobCatalog,
  command: { type: string; parent_agent_id: string },
  handles: string[],
): { ok: true; resolved: Resolved[] } | { ok: false; error: WireError } {
  const resolved: Resolved[] = [];
  for (const handle of handles) {
    const r = catalog.resolve(command.parent_agent_id, handle);
    if (!r) {
      return {
        ok: false,
        error: {
          code: "NOT_FOUND",
          message: `${command.type}: no job, run or child "${handle}" of agent ${command.parent_agent_id}; subagent.status lists its jobs`,
        },
      };
    }
    resolved.push(r);
  }
  return { ok: true, resolved };
}

export function refsOf(resolved: Resolved): RunRef[] {
  switch (resolved.kind) {
    case "job":
      return resolved.job.runs.map((run) => ({ job: resolved.job, run }));
    case "run":
    case "agent":
      return [resolved.ref];
  }
}
