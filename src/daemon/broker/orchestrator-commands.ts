/**
 * Registry commands (PROTOCOL §10.1). Orchestrator-level: their responses and the events they
 * cause never carry a routing `agent_id`.
 */
import { type Static, Type } from "@sinclair/typebox";
import { REGISTRY_COMMAND_SCHEMAS } from "../../types/catalog.ts";
import type { AgentAttachCommandSchema } from "../../types/orchestrator.ts";
import { failure, type WireError } from "../../wire/errors.ts";
import { errorResponse, okResponse } from "../../wire/response.ts";
import { schemaGuard } from "../../wire/validate.ts";
import { spawnAgent } from "./agent-spawn.ts";
import type { BrokerContext } from "./broker-context.ts";
import type { DaemonClient } from "./daemon-client.ts";

type RegistryCommand = NonNullable<ReturnType<typeof asRegistryCommand>>;

/** Narrows a validated orchestrator command to the ones this module handles. */
export const asRegistryCommand = schemaGuard(() => Type.Union([...REGISTRY_COMMAND_SCHEMAS]));

type Attach = Static<typeof AgentAttachCommandSchema>;

export async function handleRegistryCommand(
  ctx: BrokerContext,
  client: DaemonClient,
  command: RegistryCommand,
): Promise<void> {
  const fail = (error: WireError) => client.send(errorResponse(command, error));
  switch (command.type) {
    case "agent.list":
      client.send(okResponse(command, { agents: allInfo(ctx) }));
      return;
    case "agent.status": {
      if (command.agent_id === undefined) {
        client.send(okResponse(command, { agents: allInfo(ctx) }));
        return;
      }
      const info = ctx.agentInfo(command.agent_id);
      if (!info) return fail(notFound(command.agent_id));
      client.send(okResponse(command, { agents: [info] }));
      return;
    }
    case "agent.create": {
      const { type: _type, id: _id, ...params } = command;
      if (params.parent_agent_id !== undefined && !ctx.registry.get(params.parent_agent_id)) {
        return fail({
          code: "INVALID_REQUEST",
          message: `agent.create: field "parent_agent_id": no agent ${params.parent_agent_id}; agent.list shows the agents`,
        });
      }
      const created = await spawnAgent(ctx, params);
      if (!created.ok) return fail(created.error);
      if (!created.started.ok) {
        // The identity is kept: attach or a prompt retries the start.
        return fail({ ...created.started.error, data: { agent_id: created.agent_id } });
      }
      client.send(okResponse(command, { agent_id: created.agent_id }));
      return;
    }
    case "agent.attach":
      return attach(ctx, client, command);
    case "agent.detach": {
      if (!ctx.registry.get(command.agent_id)) return fail(notFound(command.agent_id));
      const channel = ctx.channel(command.agent_id);
      if (!channel.attachments.delete(client.id)) {
        return fail(
          failure("NOT_ATTACHED", `this connection is not attached to agent ${command.agent_id}`).error,
        );
      }
      ctx.respondersChanged(command.agent_id);
      client.send(okResponse(command));
      return;
    }
    case "agent.terminate":
      if (!ctx.registry.get(command.agent_id)) return fail(notFound(command.agent_id));
      client.send(okResponse(command, ctx.registry.terminate(command.agent_id)));
      return;
    case "agent.kill":
      if (!ctx.registry.get(command.agent_id)) return fail(notFound(command.agent_id));
      await ctx.registry.kill(command.agent_id, command.force === true);
      client.send(okResponse(command));
      return;
    case "daemon.shutdown":
      client.send(okResponse(command));
      ctx.requestShutdown(command.force === true);
      return;
  }
}

/**
 * Restores the runtime if needed, then — in one synchronous step — answers, sends `sync` from
 * the daemon's snapshot and joins the fan-out: every later event has a larger `seq` and reaches
 * this client exactly once (PROTOCOL §6.4).
 */
async function attach(ctx: BrokerContext, client: DaemonClient, command: Attach): Promise<void> {
  const agentId = command.agent_id;
  if (!ctx.registry.get(agentId)) {
    client.send(errorResponse(command, notFound(agentId)));
    return;
  }
  const started = await ctx.registry.ensureRunning(agentId);
  if (!ctx.isOpen(client)) return;
  if (!started.ok) {
    client.send(errorResponse(command, { ...started.error, data: { agent_id: agentId } }));
    return;
  }
  const channel = ctx.channel(agentId);
  const info = ctx.agentInfo(agentId);
  if (!info) return;
  client.send(okResponse(command, { status: info.status, info }));
  client.send(channel.sync());
  channel.attachments.set(client.id, { client, role: command.role ?? "interactive" });
  ctx.respondersChanged(agentId, client);
}

function allInfo(ctx: BrokerContext) {
  return ctx.registry.list().flatMap((a) => ctx.agentInfo(a.manifest.agent_id) ?? []);
}

function notFound(agentId: string): WireError {
  return { code: "NOT_FOUND", message: `no agent ${agentId}; agent.list shows the agents` };
}
