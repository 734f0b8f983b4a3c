/**
 * The `subagent.*` commands (docs/protocol.md, `subagent.*`; docs/subagents.md). Every handle resolves inside the parent the
 * command names; another parent's jobs and children are NOT_FOUND. Responses carry ids,
 * aliases, states and final text — never task text.
 */

import { describeError } from "../../support/describe-error.ts";
import type {
  SubagentCreateCommand,
  SubagentCreateResult,
  SubagentStatusCommand,
  SubagentStatusResult,
  SubagentStopCommand,
  SubagentStopResult,
  SubagentWaitCommand,
  SubagentWaitResult,
} from "../../types/subagent.ts";
import { type Failure, failure } from "../../wire/errors.ts";
import type { ClientConnection } from "../broker/client-connection.ts";
import { type Answer, answer, type HandlersOf, type Outcome } from "../broker/command-handlers.ts";
import { buildJob } from "./create-request.ts";
import { refsOf, resolveAll } from "./handles.ts";
import type { RunRef } from "./job-catalog.ts";
import { isTerminal, jobSnapshot, runSnapshot } from "./job-record.ts";
import { relaunch, steer } from "./steer-relaunch-commands.ts";
import type { SubagentService } from "./subagent-service.ts";

/** The newest jobs `subagent.status` lists without targets. */
const STATUS_JOBS = 50;

export function subagentHandlers(service: SubagentService): HandlersOf<"subagents"> {
  return {
    "subagent.create": (client, command) =>
      unknownParent(service, client, command) ?? create(service, command),
    "subagent.wait": (client, command) =>
      unknownParent(service, client, command) ?? wait(service, client, command),
    "subagent.status": (client, command) =>
      unknownParent(service, client, command) ?? status(service, command),
    "subagent.stop": (client, command) => unknownParent(service, client, command) ?? stop(service, command),
    "subagent.steer": (client, command) => unknownParent(service, client, command) ?? steer(service, command),
    "subagent.relaunch": (client, command) =>
      unknownParent(service, client, command) ?? relaunch(service, command),
  };
}

/**
 * Every `subagent.*` command names a parent the registry knows (NOT_FOUND otherwise); from then
 * on its client hears of that parent's runs.
 */
function unknownParent(
  service: SubagentService,
  client: ClientConnection,
  command: { type: string; parent_agent_id: string },
): Failure | undefined {
  if (!service.deps.registry.get(command.parent_agent_id)) {
    return failure(
      "NOT_FOUND",
      `${command.type}: no agent ${command.parent_agent_id}; agent.list shows the agents`,
    );
  }
  service.listen(command.parent_agent_id, client);
  return undefined;
}

function create(service: SubagentService, command: SubagentCreateCommand): Answer<SubagentCreateResult> {
  const { registry, ctx } = service.deps;
  const parent = registry.get(command.parent_agent_id);
  if (!parent) return failure("NOT_FOUND", `subagent.create: no agent ${command.parent_agent_id}`);
  const info = ctx.agentInfo(parent.manifest.agent_id);
  if (!info?.sandbox) return failure("NOT_FOUND", `subagent.create: no agent ${command.parent_agent_id}`);
  const built = buildJob(command, {
    parent: parent.manifest,
    parentModel: info.model ?? parent.manifest.model,
    parentMode: info.mode ?? parent.manifest.mode,
    parentSandbox: info.sandbox,
    takenAliases: service.catalog.aliasesOf(parent.manifest.agent_id),
    modelProblem: (model) => registry.modelProblem(model),
    now: Date.now(),
  });
  if (!built.ok) return built;
  const { job, sandbox } = built;
  try {
    service.store.save(job);
  } catch (err) {
    return failure(
      "INTERNAL_ERROR",
      `subagent.create: could not write the job record: ${describeError(err)}; nothing was started`,
    );
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
    ...(sandbox !== undefined ? { sandbox } : {}),
  };
  return answer(result, () => service.scheduleSoon());
}

function wait(
  service: SubagentService,
  client: ClientConnection,
  command: SubagentWaitCommand,
): Outcome<SubagentWaitResult> {
  const found = resolveAll(service.catalog, command, command.handles);
  if (!found.ok) return found;
  const refs: RunRef[] = [];
  for (const ref of found.resolved.flatMap(refsOf)) if (!refs.some((r) => r.run === ref.run)) refs.push(ref);
  const owner = { clientId: client.id, parentId: command.parent_agent_id };
  const later = new Promise<Answer<SubagentWaitResult>>((settle) => {
    service.waiters.wait(owner, refs, command.mode ?? "all", command.timeout, {
      answer: (result) => settle(answer(result)),
      cancel: (error) => settle({ ok: false, error }),
    });
  });
  return { later };
}

function status(service: SubagentService, command: SubagentStatusCommand): Answer<SubagentStatusResult> {
  const parentId = command.parent_agent_id;
  let refs: RunRef[];
  let result: SubagentStatusResult;
  if (command.targets === undefined) {
    const jobs = service.catalog.jobsOf(parentId).slice(0, STATUS_JOBS);
    refs = jobs.flatMap((job) => job.runs.map((run) => ({ job, run })));
    result = { agents: [], jobs: jobs.map(jobSnapshot) };
  } else {
    const found = resolveAll(service.catalog, command, command.targets);
    if (!found.ok) return found;
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
  return answer(result);
}

/** A job handle cancels its queued and active runs; a run, agent or alias handle only that run. */
function stop(service: SubagentService, command: SubagentStopCommand): Answer<SubagentStopResult> {
  const found = resolveAll(service.catalog, command, [command.handle]);
  if (!found.ok) return found;
  const [resolved] = found.resolved;
  if (!resolved) return failure("NOT_FOUND", `subagent.stop: nothing is named "${command.handle}"`);
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
  return answer(result);
}
