/**
 * `subagent.steer` (strict: injected into the active turn, or conflict) and
 * `subagent.relaunch` (a new job and run on the same durable child, its history kept) —
 * docs/subagents.md.
 */

import { describeError } from "../../support/describe-error.ts";
import { newId } from "../../support/ids.ts";
import type {
  SubagentRelaunchCommand,
  SubagentRelaunchResult,
  SubagentSteerCommand,
  SubagentSteerResult,
} from "../../types/subagent.ts";
import { failure, type WireError } from "../../wire/errors.ts";
import { type Answer, answer } from "../broker/command-handlers.ts";
import { resolveAll } from "./handles.ts";
import type { RunRef } from "./job-catalog.ts";
import { isTerminal, JOB_RECORD_VERSION, type JobRecord } from "./job-record.ts";
import { steerRun } from "./steer-run.ts";
import type { SubagentService } from "./subagent-service.ts";

/** A run, agent or alias handle (not a job): the run it names now. */
function targetRun(
  service: SubagentService,
  command: SubagentSteerCommand | SubagentRelaunchCommand,
): { ok: true; ref: RunRef } | { ok: false; error: WireError } {
  const found = resolveAll(service.catalog, command, [command.target]);
  if (!found.ok) return found;
  const [resolved] = found.resolved;
  if (!resolved || resolved.kind === "job") {
    return {
      ok: false,
      error: {
        code: "INVALID_REQUEST",
        message: `${command.type}: field "target": name a run, child agent or alias, not a job`,
      },
    };
  }
  return { ok: true, ref: resolved.ref };
}

export async function steer(
  service: SubagentService,
  command: SubagentSteerCommand,
): Promise<Answer<SubagentSteerResult>> {
  const target = targetRun(service, command);
  if (!target.ok) return target;
  const started = await steerRun(service, target.ref.run, { message: command.message }, command.type);
  if (!started.ok) return started;
  return answer(await started.outcome);
}

export function relaunch(
  service: SubagentService,
  command: SubagentRelaunchCommand,
): Answer<SubagentRelaunchResult> {
  const target = targetRun(service, command);
  if (!target.ok) return target;
  const agentId = target.ref.run.agent_id;
  const current = service.catalog.resolve(command.parent_agent_id, agentId);
  const latest = current?.kind === "agent" ? current.ref : target.ref;
  if (!isTerminal(latest.run.state)) {
    return failure(
      "CONFLICT",
      `subagent.relaunch: child ${agentId} still has run ${latest.run.run_id} ${latest.run.state}; wait for it or stop it first`,
    );
  }
  const job: JobRecord = {
    version: JOB_RECORD_VERSION,
    job_id: newId("job"),
    parent_agent_id: command.parent_agent_id,
    strategy: "single",
    launch: latest.job.launch,
    runs: [
      {
        run_id: newId("run"),
        index: 0,
        name: latest.run.name,
        agent_id: agentId,
        alias: latest.run.alias,
        task: command.task,
        state: "queued",
        timeout_s: latest.run.timeout_s,
      },
    ],
    created_at: Date.now(),
  };
  try {
    service.store.save(job);
  } catch (err) {
    return failure(
      "INTERNAL_ERROR",
      `subagent.relaunch: could not write the job record: ${describeError(err)}; nothing was started`,
    );
  }
  service.catalog.add(job);
  const [run] = job.runs;
  if (!run) return failure("INTERNAL_ERROR", "subagent.relaunch: the new job has no run");
  const result: SubagentRelaunchResult = {
    job_id: job.job_id,
    run_id: run.run_id,
    agent_id: agentId,
    alias: run.alias,
    state: "queued",
  };
  return answer(result, () => service.scheduleSoon());
}
