/**
 * `subagent.steer` (strict: injected into the active turn, or conflict) and
 * `subagent.relaunch` (a new job and run on the same durable child, its history kept) —
 * PROTOCOL §10.3.
 */
import { newId } from "../../support/ids.ts";
import type {
  SubagentRelaunchCommand,
  SubagentRelaunchResult,
  SubagentSteerCommand,
} from "../../types/subagent.ts";
import type { WireError } from "../../wire/errors.ts";
import { errorResponse, okResponse } from "../../wire/response.ts";
import type { DaemonClient } from "../broker/daemon-client.ts";
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
  client: DaemonClient,
  command: SubagentSteerCommand,
): Promise<void> {
  const target = targetRun(service, command);
  if (!target.ok) return client.send(errorResponse(command, target.error));
  const started = await steerRun(service, target.ref.run, { message: command.message }, command.type);
  if (!started.ok) return client.send(errorResponse(command, started.error));
  const result = await started.outcome;
  if (service.deps.ctx.isOpen(client)) client.send(okResponse(command, result));
}

export async function relaunch(
  service: SubagentService,
  client: DaemonClient,
  command: SubagentRelaunchCommand,
): Promise<void> {
  const target = targetRun(service, command);
  if (!target.ok) return client.send(errorResponse(command, target.error));
  const agentId = target.ref.run.agent_id;
  const current = service.catalog.resolve(command.parent_agent_id, agentId);
  const latest = current?.kind === "agent" ? current.ref : target.ref;
  if (!isTerminal(latest.run.state)) {
    return client.send(
      errorResponse(command, {
        code: "CONFLICT",
        message: `subagent.relaunch: child ${agentId} still has run ${latest.run.run_id} ${latest.run.state}; wait for it or stop it first`,
      }),
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
    return client.send(
      errorResponse(command, {
        code: "INTERNAL_ERROR",
        message: `subagent.relaunch: could not write the job record: ${(err as Error).message}; nothing was started`,
      }),
    );
  }
  service.catalog.add(job);
  const [run] = job.runs;
  if (!run) return;
  const result: SubagentRelaunchResult = {
    job_id: job.job_id,
    run_id: run.run_id,
    agent_id: agentId,
    alias: run.alias,
    state: "queued",
  };
  client.send(okResponse(command, result));
  service.scheduleSoon();
}
