/**
 * The `subagent.*` commands (PROTOCOL §10.3). Every handle resolves inside the parent the
 * command names; another parent's jobs and children are NOT_FOUND. Responses carry ids,
 * aliases, states and final text — never task text.
 */
import type {
  SubagentCreateCommand,
  SubagentCreateResult,
  SubagentStatusCommand,
  SubagentStatusResult,
  SubagentStopCommand,
  SubagentStopResult,
  SubagentWaitCommand,
} from "../../types/subagent.ts";
import { SUBAGENT_COMMAND_SCHEMAS } from "../../types/subagent.ts";
import type { WireError } from "../../wire/errors.ts";
import { errorResponse, okResponse } from "../../wire/response.ts";
import { messageGuard } from "../../wire/validate.ts";
import type { DaemonClient } from "../broker/daemon-client.ts";
import { buildJob } from "./create-request.ts";
import { refsOf, resolveAll } from "./handles.ts";
import type { RunRef } from "./job-catalog.ts";
import { isTerminal, jobSnapshot, runSnapshot } from "./job-record.ts";
import { relaunch, steer } from "./steer-relaunch-commands.ts";
import type { SubagentService } from "./subagent-service.ts";

const asSubagentCommand = messageGuard(SUBAGENT_COMMAND_SCHEMAS);

/** The newest jobs `subagent.status` lists without targets. */
const STATUS_JOBS = 50;

export async function handleSubagentCommand(
  service: SubagentService,
  client: DaemonClient,
  message: unknown,
): Promise<void> {
  const command = asSubagentCommand(message);
  if (!command) return;
  const fail = (error: WireError) => client.send(errorResponse(command, error));
  const parent = service.deps.registry.get(command.parent_agent_id);
  if (!parent) {
    return fail({
      code: "NOT_FOUND",
      message: `${command.type}: no agent ${command.parent_agent_id}; agent.list shows the agents`,
    });
  }
  service.listen(command.parent_agent_id, client);
  switch (command.type) {
    case "subagent.create":
      return create(service, client, command);
    case "subagent.wait":
      return wait(service, client, command);
    case "subagent.status":
      return status(service, client, command);
    case "subagent.stop":
      return stop(service, client, command);
    case "subagent.steer":
      return steer(service, client, command);
    case "subagent.relaunch":
      return relaunch(service, client, command);
  }
}

function create(service: SubagentService, client: DaemonClient, command: SubagentCreateCommand): void {
  const { registry, ctx } = service.deps;
  const parent = registry.get(command.parent_agent_id);
  if (!parent) return;
  const built = buildJob(command, {
    parent: parent.manifest,
    parentModel: ctx.agentInfo(parent.manifest.agent_id)?.model ?? parent.manifest.model,
    parentMode: ctx.agentInfo(parent.manifest.agent_id)?.mode ?? parent.manifest.mode,
    takenAliases: service.catalog.aliasesOf(parent.manifest.agent_id),
    now: Date.now(),
  });
  if (!built.ok) {
    client.send(errorResponse(command, built.error));
    return;
  }
  const { job } = built;
  try {
    service.store.save(job);
  } catch (err) {
    client.send(
      errorResponse(command, {
        code: "INTERNAL_ERROR",
        message: `subagent.create: could not write the job record: ${(err as Error).message}; nothing was started`,
      }),
    );
    return;
  }
  service.catalog.add(job);
  const result: SubagentCreateResult = {
    job_id: job.job_id,
    strategy: job.strategy,
    runs: job.runs.map((r) => ({
      run_id: r.run_id,
      index: r.index,
      name: r.name,
      state: "queued",
      agent_id: r.agent_id,
      alias: r.alias,
    })),
  };
  client.send(okResponse(command, result));
  service.scheduleSoon();
}

function wait(service: SubagentService, client: DaemonClient, command: SubagentWaitCommand): void {
  const found = resolveAll(service.catalog, command, command.handles);
  if (!found.ok) {
    client.send(errorResponse(command, found.error));
    return;
  }
  const refs: RunRef[] = [];
  for (const ref of found.resolved.flatMap(refsOf)) if (!refs.some((r) => r.run === ref.run)) refs.push(ref);
  const owner = { clientId: client.id, parentId: command.parent_agent_id };
  service.waiters.wait(owner, refs, command.mode ?? "all", command.timeout, {
    answer: (result) => {
      if (service.deps.ctx.isOpen(client)) client.send(okResponse(command, result));
    },
    cancel: (error) => {
      if (service.deps.ctx.isOpen(client)) client.send(errorResponse(command, error));
    },
  });
}

function status(service: SubagentService, client: DaemonClient, command: SubagentStatusCommand): void {
  const parentId = command.parent_agent_id;
  let refs: RunRef[];
  let result: SubagentStatusResult;
  if (command.targets === undefined) {
    const jobs = service.catalog.jobsOf(parentId).slice(0, STATUS_JOBS);
    refs = jobs.flatMap((job) => job.runs.map((run) => ({ job, run })));
    result = { agents: [], jobs: jobs.map(jobSnapshot) };
  } else {
    const found = resolveAll(service.catalog, command, command.targets);
    if (!found.ok) {
      client.send(errorResponse(command, found.error));
      return;
    }
    refs = found.resolved.flatMap(refsOf);
    result = { agents: [] };
  }
  const seen = new Set<string>();
  for (const ref of refs) {
    const agentId = ref.run.agent_id;
    if (seen.has(agentId)) continue;
    seen.add(agentId);
    const current = service.catalog.resolve(parentId, agentId);
    const shown = command.targets === undefined && current?.kind === "agent" ? current.ref : ref;
    result.agents.push({
      agent_id: agentId,
      alias: ref.run.alias,
      parent_agent_id: parentId,
      run: runSnapshot(shown.job, shown.run),
    });
  }
  client.send(okResponse(command, result));
}

/** A job handle cancels its queued and active runs; a run, agent or alias handle only that run. */
function stop(service: SubagentService, client: DaemonClient, command: SubagentStopCommand): void {
  const found = resolveAll(service.catalog, command, [command.handle]);
  if (!found.ok) {
    client.send(errorResponse(command, found.error));
    return;
  }
  const [resolved] = found.resolved;
  if (!resolved) return;
  const job = resolved.kind === "job" ? resolved.job : resolved.ref.job;
  const targets = refsOf(resolved).filter((r) => !isTerminal(r.run.state));
  const before = new Map(job.runs.map((r) => [r.run_id, r.state]));
  if (resolved.kind === "job" && targets.length > 0) job.stopped_at = Date.now();
  const error = "stopped by its parent";
  // Queued runs first, in one commit, so none of them starts while the others are stopped.
  const queued = targets.filter((r) => r.run.state === "queued");
  service.coordinator.commit(
    job,
    queued.map((r) => ({ run: r.run, state: "cancelled", patch: { error } })),
  );
  for (const ref of targets) service.coordinator.finish(ref, "cancelled", error);
  const result: SubagentStopResult = {
    cancelled: job.runs
      .filter((r) => before.get(r.run_id) !== r.state)
      .map((r) => ({ run_id: r.run_id, agent_id: r.agent_id, state: r.state })),
    job_id: job.job_id,
  };
  client.send(okResponse(command, result));
}
