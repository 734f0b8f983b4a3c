/**
 * `workspace.create | attach | list | status | retire` (PROTOCOL §10.1a): daemon-level, no
 * routing agent_id. Create and attach launch a fresh agent in the worktree through the registry.
 */
import { WORKSPACE_COMMAND_SCHEMAS } from "../../types/catalog.ts";
import { failure } from "../../wire/errors.ts";
import { errorResponse, okResponse } from "../../wire/response.ts";
import { messageGuard } from "../../wire/validate.ts";
import { spawnAgent } from "../broker/agent-spawn.ts";
import type { BrokerContext } from "../broker/broker-context.ts";
import type { DaemonClient } from "../broker/daemon-client.ts";
import type { LaunchOptions, WorkspaceDeps } from "./workspaces.ts";

export type WorkspaceCommand = NonNullable<ReturnType<typeof asWorkspaceCommand>>;

export const asWorkspaceCommand = messageGuard(WORKSPACE_COMMAND_SCHEMAS);

export async function handleWorkspaceCommand(
  ctx: BrokerContext,
  client: DaemonClient,
  command: WorkspaceCommand,
): Promise<void> {
  const workspaces = await ctx.workspaces();
  const answer = (
    result: { ok: true; value: unknown } | { ok: false; error: Parameters<typeof errorResponse>[1] },
  ) => client.send(result.ok ? okResponse(command, result.value) : errorResponse(command, result.error));
  switch (command.type) {
    case "workspace.create":
      return answer(await workspaces.create(command));
    case "workspace.attach":
      return answer(await workspaces.attach(command));
    case "workspace.list":
      client.send(okResponse(command, { workspaces: workspaces.list(command) }));
      return;
    case "workspace.status": {
      const status = await workspaces.status(command.workspace_id);
      return answer(status.ok ? { ok: true, value: { workspace: status.value } } : status);
    }
    case "workspace.retire":
      return answer(await workspaces.retire(command));
    case "workspace.diff":
      return answer(await workspaces.diff(command.workspace_id));
  }
}

/** What the workspace manager needs of the broker and registry. */
export function workspaceDeps(ctx: BrokerContext, log: (line: string) => void): WorkspaceDeps {
  return {
    home: ctx.registry.home,
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
