/**
 * `workspace.create | attach | list | status | retire` (docs/protocol.md §10.3): daemon-level, no
 * routing agent_id. Create and attach launch a fresh agent in the worktree through the registry.
 */
import { describeError } from "../../support/describe-error.ts";
import { type Failure, failure } from "../../wire/errors.ts";
import { spawnAgent } from "../broker/agent-spawn.ts";
import type { BrokerContext } from "../broker/broker-context.ts";
import { type Answer, answer, type HandlersOf } from "../broker/command-handlers.ts";
import { findPlacement } from "../registry/placement-launch.ts";
import { localWorkspaceHost, placementWorkspaceHost } from "./workspace-host.ts";
import { intentFiles, intentsDir } from "./workspace-intents.ts";
import type { LaunchOptions, WorkspaceDeps, Workspaces } from "./workspaces.ts";

/**
 * The workspace commands; the manager loads on the first one (an idle daemon never pays for
 * it), or at start when an intent is left over.
 */
export function workspaceHandlers(
  ctx: BrokerContext,
  home: string,
  log: (line: string) => void,
): HandlersOf<"workspaces"> {
  let loading: Promise<Workspaces> | undefined;
  const workspaces = () => {
    loading ??= import("./workspaces.ts").then(({ Workspaces }) => Workspaces.open(workspaceDeps(ctx, log)));
    return loading;
  };
  // An operation a killed daemon left half done is finished or undone now, not at the next command.
  if (intentFiles(intentsDir(home)).length > 0) {
    void workspaces().catch((err) => log(`workspaces: could not load: ${describeError(err)}`));
  }
  return {
    "workspace.create": async (_client, command) => fromResult(await (await workspaces()).create(command)),
    "workspace.attach": async (_client, command) => fromResult(await (await workspaces()).attach(command)),
    "workspace.list": async (_client, command) => answer({ workspaces: (await workspaces()).list(command) }),
    "workspace.status": async (_client, command) => {
      const status = await (await workspaces()).status(command.workspace_id);
      return status.ok ? answer({ workspace: status.value }) : status;
    },
    "workspace.retire": async (_client, command) => fromResult(await (await workspaces()).retire(command)),
    "workspace.diff": async (_client, command) =>
      fromResult(await (await workspaces()).diff(command.workspace_id)),
  };
}

/** The manager's `{ok, value}` results as handler answers. */
function fromResult<R>(result: { ok: true; value: R } | Failure): Answer<R> {
  return result.ok ? answer(result.value) : result;
}

/** What the workspace manager needs of the broker and registry. */
export function workspaceDeps(ctx: BrokerContext, log: (line: string) => void): WorkspaceDeps {
  const home = ctx.registry.home;
  return {
    home,
    hostOf: (placement) => {
      if (placement === undefined) return { ok: true, value: localWorkspaceHost(home) };
      const found = findPlacement(home, placement);
      if (!found.ok) return { ok: false, message: found.reason };
      return { ok: true, value: placementWorkspaceHost(found.placement, { home, env: ctx.registry.env }) };
    },
    agents: {
      active: (agentId) => ctx.isActive(agentId),
      running: (agentId) =>
        ctx.registry.get(agentId)?.runtimeState !== "stopped" && ctx.registry.get(agentId) !== undefined,
    },
    launch: async (cwd: string, options: LaunchOptions) => {
      const created = await spawnAgent(ctx, { cwd, ...options });
      if (!created.ok) return created;
      if (!created.started.ok)
        return { ok: false, error: { ...created.started.error, data: { agent_id: created.agent_id } } };
      const sessionId = created.started.sync.session_id;
      if (sessionId === undefined) return failure("INTERNAL_ERROR", "the agent started without a session id");
      return { ok: true, agent_id: created.agent_id, session_id: sessionId };
    },
    broadcast: (event) => ctx.broadcast(event),
    log,
  };
}
