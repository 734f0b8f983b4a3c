/**
 * `subagent.create` before any side effect (docs/protocol.md §10.4): the whole request is checked —
 * form, strategy, launch policy and depth — and the job record is built with every id and
 * alias preallocated. Nothing is written here; the caller commits the record in one step.
 */
import { newId } from "../../support/ids.ts";
import type { LaunchPolicy } from "../../types/orchestrator.ts";
import type { SandboxMode, SandboxState } from "../../types/sandbox.ts";
import type { SubagentCreateCommand, SubagentTask } from "../../types/subagent.ts";
import type { JobStrategy } from "../../types/subagent-jobs.ts";
import { type Failure, failure } from "../../wire/errors.ts";
import type { AgentManifest } from "../registry/manifest.ts";
import { reserveAliases } from "./alias-pool.ts";
import { childSandbox } from "./child-sandbox.ts";
import { JOB_RECORD_VERSION, type JobRecord } from "./job-record.ts";

/** What a top-level agent may launch when its manifest names no policy. */
export const DEFAULT_LAUNCH_POLICY: LaunchPolicy = { maxTasks: 8, maxDepth: 2 };
/** Seconds a run may take once started when the request names no `timeout`. */
export const DEFAULT_RUN_TIMEOUT_S = 1800;

export interface CreateContext {
  parent: AgentManifest;
  /** The parent's model now (a live `set_model` wins over its manifest). */
  parentModel: string | undefined;
  /** The parent's mode now (a live `set_mode` wins over its manifest). */
  parentMode: string | undefined;
  /** The parent's sandbox now (a live `set_sandbox` wins over its manifest). */
  parentSandbox: SandboxState;
  /** Folded aliases the parent's children already hold. */
  takenAliases: ReadonlySet<string>;
  /** Why a model the request names is unknown (before any child exists), or undefined. */
  modelProblem(model: string): string | undefined;
  now: number;
}

export function buildJob(
  command: SubagentCreateCommand,
  context: CreateContext,
): { ok: true; job: JobRecord; sandbox?: { mode: SandboxMode; requested?: SandboxMode } } | Failure {
  const form = requestForm(command);
  if (!form.ok) return form;
  const { tasks, strategy } = form;
  const { parent } = context;
  const policy = parent.launch_policy ?? DEFAULT_LAUNCH_POLICY;
  const depth = (parent.depth ?? 0) + 1;
  if (depth > policy.maxDepth) {
    return failure(
      "PERMISSION_DENIED",
      `subagent.create: agent ${parent.agent_id} is at depth ${depth - 1} and its launch policy allows children only to depth ${policy.maxDepth}; let an ancestor launch this work`,
    );
  }
  if (tasks.length > policy.maxTasks) {
    return failure(
      "PERMISSION_DENIED",
      `subagent.create: ${tasks.length} tasks exceed the launch policy of agent ${parent.agent_id} (at most ${policy.maxTasks} per job); split the work into smaller jobs`,
    );
  }
  const parentMode = context.parentMode;
  if (command.mode !== undefined && !mayLaunchIn(parentMode, command.mode)) {
    return failure(
      "PERMISSION_DENIED",
      `subagent.create: agent ${parent.agent_id} is in mode "${parentMode}", and its children keep its restrictions; a child cannot run in mode "${command.mode}" (omit "mode", or set_mode the parent first)`,
    );
  }
  const asked = modelId(command.model, command.provider);
  const modelProblem = asked === undefined ? undefined : context.modelProblem(asked);
  if (modelProblem !== undefined)
    return failure("INVALID_REQUEST", `subagent.create: field "model": ${modelProblem}`);
  const timeout = command.timeout ?? DEFAULT_RUN_TIMEOUT_S;
  const aliases = reserveAliases(context.takenAliases, tasks.length);
  const model = asked ?? context.parentModel;
  const mode = command.mode ?? parentMode;
  const sandbox = childSandbox(
    context.parentSandbox,
    command.sandbox !== undefined ? { mode: command.sandbox } : {},
  );
  const job: JobRecord = {
    version: JOB_RECORD_VERSION,
    job_id: newId("job"),
    parent_agent_id: parent.agent_id,
    strategy,
    ...(command.budget_usd !== undefined ? { budget_usd: command.budget_usd } : {}),
    launch: {
      cwd: parent.cwd,
      ...(model !== undefined ? { model } : {}),
      ...(mode !== undefined ? { mode } : {}),
      ...(sandbox.mode !== undefined ? { sandbox: sandbox.mode } : {}),
      sandbox_policy: sandbox.policy,
      ...(sandbox.network_allow.length > 0 ? { network_allow: sandbox.network_allow } : {}),
      ...(command.traceparent !== undefined ? { traceparent: command.traceparent } : {}),
    },
    runs: tasks.map((t, index) => ({
      run_id: newId("run"),
      index,
      name: t.name,
      agent_id: newId("agent"),
      alias: aliases[index] ?? t.name,
      task: t.task,
      state: "queued",
      timeout_s: timeout,
    })),
    created_at: context.now,
  };
  const told =
    sandbox.mode === undefined
      ? {}
      : {
          sandbox: {
            mode: sandbox.mode,
            ...(sandbox.requested !== undefined ? { requested: sandbox.requested } : {}),
          },
        };
  return { ok: true, job, ...told };
}

function requestForm(
  command: SubagentCreateCommand,
): { ok: true; tasks: SubagentTask[]; strategy: JobStrategy } | Failure {
  const single = command.name !== undefined || command.task !== undefined;
  if (single && command.tasks !== undefined) {
    return failure(
      "INVALID_REQUEST",
      'subagent.create: send either "name" + "task" (one child) or "tasks" + "strategy" (a batch), not both',
    );
  }
  if (command.tasks !== undefined) {
    if (command.strategy === undefined) {
      return failure(
        "INVALID_REQUEST",
        'subagent.create: field "strategy": required with "tasks" ("parallel" or "chain")',
      );
    }
    if (command.strategy === "single" && command.tasks.length !== 1) {
      return failure(
        "INVALID_REQUEST",
        `subagent.create: strategy "single" takes one task, got ${command.tasks.length}; use "parallel" or "chain"`,
      );
    }
    return { ok: true, tasks: command.tasks, strategy: command.strategy };
  }
  if (command.name === undefined || command.task === undefined) {
    return failure(
      "INVALID_REQUEST",
      `subagent.create: field "${command.name === undefined ? "name" : "task"}": required in the single form (or send "tasks" + "strategy")`,
    );
  }
  if (command.strategy !== undefined && command.strategy !== "single") {
    return failure(
      "INVALID_REQUEST",
      `subagent.create: strategy "${command.strategy}" needs the batch form "tasks"`,
    );
  }
  return { ok: true, tasks: [{ name: command.name, task: command.task }], strategy: "single" };
}

/**
 * Children inherit their parent's restrictions (docs/architecture.md §7.2): the daemon cannot
 * compare modes it does not define, so only a parent in the default `build` mode may name another.
 */
function mayLaunchIn(parentMode: string | undefined, mode: string): boolean {
  return parentMode === undefined || parentMode === "build" || parentMode === mode;
}

/** Same reading as agent.create: `provider` + a bare `model` mean `provider/model`. */
function modelId(model: string | undefined, provider: string | undefined): string | undefined {
  if (model === undefined) return undefined;
  if (provider !== undefined && !model.includes("/")) return `${provider}/${model}`;
  return model;
}
