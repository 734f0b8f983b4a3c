/**
 * `subagent`: the model's way to hand work to child agents (docs/architecture.md §7.2). It is one
 * more client of the daemon's `subagent.*` commands (docs/protocol.md §10.4), for the agent the
 * daemon started it as; the daemon owns the jobs, so they outlive this turn and this runtime.
 */
import { type Static, Type } from "@sinclair/typebox";
import type { CallOf } from "../client/command-result.ts";
import type { Tool } from "../contracts/tool.ts";
import type { CommandTypeOwnedBy } from "../types/command-table.ts";
import { type DaemonRoute, daemonCall } from "./daemon-call.ts";
import { errorResult } from "./tool-result.ts";

const SubagentParams = Type.Object({
  action: Type.Union(
    [
      Type.Literal("create"),
      Type.Literal("wait"),
      Type.Literal("status"),
      Type.Literal("stop"),
      Type.Literal("steer"),
      Type.Literal("relaunch"),
    ],
    {
      description:
        "create: start children for tasks; wait: block until handles finish; status: list your jobs; " +
        "stop: cancel a job or run; steer: message a running child; relaunch: new task for a finished child.",
    },
  ),
  tasks: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String({ minLength: 1, description: "Short label for the task." }),
        task: Type.String({ minLength: 1, description: "Everything the child needs to do the work." }),
      }),
      { minItems: 1, description: "create: the tasks, one child each." },
    ),
  ),
  strategy: Type.Optional(
    Type.Union([Type.Literal("parallel"), Type.Literal("chain")], {
      description:
        "create: parallel (all at once, default) or chain (in order, each given the previous answer).",
    }),
  ),
  handles: Type.Optional(
    Type.Array(Type.String({ minLength: 1 }), {
      minItems: 1,
      description: "wait: job ids, run ids or aliases.",
    }),
  ),
  mode: Type.Optional(
    Type.Union([Type.Literal("any"), Type.Literal("all")], { description: "wait: default all." }),
  ),
  timeout: Type.Optional(
    Type.Number({ minimum: 0, description: "wait: seconds (0 polls); create: seconds each run may take." }),
  ),
  target: Type.Optional(
    Type.String({ minLength: 1, description: "stop/steer/relaunch: a job id, run id or alias." }),
  ),
  message: Type.Optional(Type.String({ minLength: 1, description: "steer: the message." })),
  sandbox: Type.Optional(
    Type.Union([Type.Literal("read-only"), Type.Literal("workspace-write"), Type.Literal("off")], {
      description: "create: the children's sandbox; default yours, and never looser than yours.",
    }),
  ),
  task: Type.Optional(Type.String({ minLength: 1, description: "relaunch: the new task." })),
});
export type SubagentArgs = Static<typeof SubagentParams>;

export interface SubagentToolOptions {
  /** The way to the daemon: its unix socket, or the runtime's stdio (`--daemon-link stdio`). */
  daemon: DaemonRoute;
  /** The durable agent this runtime plays: the parent of every job it creates. */
  agentId: string;
}

export function createSubagentTool(options: SubagentToolOptions): Tool<typeof SubagentParams> {
  return {
    name: "subagent",
    description:
      "Hand work to child agents that run in the background while you keep working. Each finished child's " +
      "result is reported to you automatically as a <subagent_report> message; use wait only when you must " +
      "have a result before going on. Children share your directory, model and permissions.",
    parameters: SubagentParams,
    isReadOnly: false,
    paths: () => [],
    render: (args) => ({ kind: "text", text: describe(args) }),
    async execute(args, ctx) {
      const command = toCommand(args, options.agentId, ctx.traceparent);
      if (typeof command === "string") return errorResult(command);
      const answer = await daemonCall(options.daemon, command, ctx.signal);
      if (!answer.ok) return errorResult(`${command.type} failed: ${answer.error.message}`);
      return { content: { kind: "json", value: answer.result }, is_error: false };
    },
  };
}

type SubagentType = CommandTypeOwnedBy<"subagents">;
/** One `subagent.*` command, typed by the command table. */
type Command = { [T in SubagentType]: CallOf<T> }[SubagentType];

/** The daemon command for the call, or what is missing. */
function toCommand(args: SubagentArgs, parent: string, traceparent: string | undefined): Command | string {
  const base = { parent_agent_id: parent };
  const need = (field: keyof SubagentArgs) => `subagent ${args.action}: "${field}" is required`;
  switch (args.action) {
    case "create":
      if (!args.tasks) return need("tasks");
      // 0 polls a wait, but a run needs time: the daemon would refuse it anyway.
      if (args.timeout === 0) return 'subagent create: "timeout" must be more than 0 seconds';
      return {
        ...base,
        type: "subagent.create",
        tasks: args.tasks,
        strategy: args.strategy ?? "parallel",
        ...(args.timeout !== undefined ? { timeout: args.timeout } : {}),
        ...(args.sandbox !== undefined ? { sandbox: args.sandbox } : {}),
        // The children's spans join this tool call's trace (docs/telemetry.md); absent when export is off.
        ...(traceparent !== undefined ? { traceparent } : {}),
      };
    case "wait":
      if (!args.handles) return need("handles");
      return {
        ...base,
        type: "subagent.wait",
        handles: args.handles,
        ...(args.mode !== undefined ? { mode: args.mode } : {}),
        ...(args.timeout !== undefined ? { timeout: args.timeout } : {}),
      };
    case "status":
      return { ...base, type: "subagent.status" };
    case "stop":
      if (!args.target) return need("target");
      return { ...base, type: "subagent.stop", handle: args.target };
    case "steer":
      if (!args.target) return need("target");
      if (!args.message) return need("message");
      return { ...base, type: "subagent.steer", target: args.target, message: args.message };
    case "relaunch":
      if (!args.target) return need("target");
      if (!args.task) return need("task");
      return { ...base, type: "subagent.relaunch", target: args.target, task: args.task };
  }
}

function describe(args: SubagentArgs): string {
  if (args.action === "create") return `subagent create: ${(args.tasks ?? []).map((t) => t.name).join(", ")}`;
  return `subagent ${args.action}${args.target ? ` ${args.target}` : ""}`;
}
