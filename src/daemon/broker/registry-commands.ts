/**
 * Registry commands (docs/protocol.md, `agent.*` and `daemon.shutdown`). Orchestrator-level:
 * their responses and the events they cause never carry a routing `agent_id`.
 */

import type { CommandMap, ResultMap } from "../../types/command-table.ts";
import type { RequestKind } from "../../types/orchestrator.ts";
import { failure } from "../../wire/errors.ts";
import { removeAgent } from "./agent-removal.ts";
import { spawnAgent } from "./agent-spawn.ts";
import type { BrokerContext } from "./broker-context.ts";
import type { ClientConnection } from "./client-connection.ts";
import { type Answer, answer, type HandlersOf } from "./command-handlers.ts";

/**
 * Fields of a managed child's manifest. From a client they would lift the subagent caps
 * (`launch_policy`, `depth`) or attach a fake child to any agent, whose permission requests
 * would then show in that agent's view (`parent_agent_id`, `alias`). The subagent coordinator
 * sets them through the registry, never through this command.
 */
const DAEMON_ONLY_CREATE_FIELDS = ["parent_agent_id", "depth", "launch_policy", "alias"] as const;

export function registryHandlers(ctx: BrokerContext): HandlersOf<"registry"> {
  return {
    "agent.list": () => answer({ agents: allInfo(ctx) }),
    "placement.list": () => answer({ placements: ctx.registry.placements() }),
    "agent.status": (_client, command) => {
      if (command.agent_id === undefined) return answer({ agents: allInfo(ctx) });
      const info = ctx.agentInfo(command.agent_id);
      return info ? answer({ agents: [info] }) : notFound(command.agent_id);
    },
    "agent.create": async (client, command) => {
      const { type: _type, id: _id, ...params } = command;
      const daemonOnly = DAEMON_ONLY_CREATE_FIELDS.find((field) => params[field] !== undefined);
      if (daemonOnly !== undefined) {
        return failure(
          "INVALID_REQUEST",
          `agent.create: field "${daemonOnly}" is set by the daemon only (a subagent's place under its parent); use subagent.create to start a child agent`,
        );
      }
      // An MCP server is a command the daemon's host runs (or a URL it calls with the given
      // headers): only the daemon's owner, on the unix socket, may name one. A browser cannot.
      if (params.mcp_servers !== undefined && !client.localTrust) {
        return failure(
          "PERMISSION_DENIED",
          'agent.create: field "mcp_servers" is accepted on the unix socket only (it runs commands on the daemon\'s machine); configure servers in $SHARD_HOME/mcp.json there, or create the agent with `shard acp --daemon` or a local client',
        );
      }
      const created = await spawnAgent(ctx, params);
      if (!created.ok) return created;
      const agentId = created.agent_id;
      const started = created.started;
      if (!started.ok && started.refused === true) {
        // The runtime refused the agent's own settings: a retry cannot start it, so nothing is kept.
        const removed = await removeAgent(ctx, agentId);
        if (removed.ok)
          return failure(started.error.code, `${started.error.message}; the agent was not kept`);
      }
      if (command.ephemeral === true) {
        // A creator that left while the runtime started takes its agent with it at once.
        if (ctx.isOpen(client)) ctx.ephemeral.own(client.id, agentId);
        else await removeAgent(ctx, agentId);
      }
      if (!started.ok) {
        // The identity is kept: attach or a prompt retries the start.
        return { ok: false, error: { ...started.error, data: { agent_id: agentId } } };
      }
      return answer({ agent_id: agentId });
    },
    "agent.attach": (client, command) => attach(ctx, client, command),
    "agent.detach": (client, command) => {
      if (!ctx.registry.get(command.agent_id)) return notFound(command.agent_id);
      const channel = ctx.channel(command.agent_id);
      if (!channel.attachments.delete(client.id)) {
        return failure("NOT_ATTACHED", `this connection is not attached to agent ${command.agent_id}`);
      }
      channel.reads.left(ctx.forwarder, command.agent_id, client.id);
      ctx.respondersChanged(command.agent_id);
      return answer({});
    },
    "agent.terminate": (_client, command) => {
      if (!ctx.registry.get(command.agent_id)) return notFound(command.agent_id);
      return answer(ctx.registry.terminate(command.agent_id));
    },
    "agent.kill": async (_client, command) => {
      if (!ctx.registry.get(command.agent_id)) return notFound(command.agent_id);
      await ctx.registry.kill(command.agent_id, command.force === true);
      return answer({});
    },
    "agent.rename": (_client, command) => {
      const renamed = ctx.registry.rename(command.agent_id, command.name);
      if (!renamed.ok) return renamed;
      const info = ctx.agentInfo(command.agent_id);
      if (!info) return notFound(command.agent_id);
      return answer({ info }, () =>
        ctx.broadcast({ type: "agent_updated", agent_id: command.agent_id, info }),
      );
    },
    "agent.delete": async (_client, command) => {
      const deleted = await removeAgent(ctx, command.agent_id, { session: command.session === true });
      return deleted.ok ? answer({}) : deleted;
    },
    "daemon.shutdown": (client, command) => {
      // Stopping the daemon is its owner's: a browser, however enrolled, cannot.
      if (!client.localTrust) {
        return failure(
          "PERMISSION_DENIED",
          "daemon.shutdown is answered on the unix socket only; run `shard daemon stop` on the daemon's machine",
        );
      }
      return answer({}, () => ctx.requestShutdown(command.force === true));
    },
  };
}

/** An interactive attachment answers every kind of request unless it says otherwise. */
const ALL_KINDS: readonly RequestKind[] = ["permission", "ui"];

/**
 * Restores the runtime if needed, then — in one synchronous step — answers, sends `sync` from
 * the daemon's snapshot and joins the fan-out: every later event has a larger `seq` and reaches
 * this client exactly once (docs/protocol.md, `agent.attach`).
 */
async function attach(
  ctx: BrokerContext,
  client: ClientConnection,
  command: CommandMap["agent.attach"],
): Promise<Answer<ResultMap["agent.attach"]>> {
  const agentId = command.agent_id;
  if (!ctx.registry.get(agentId)) return notFound(agentId);
  const channel = ctx.channel(agentId);
  const role = command.role ?? "interactive";
  // An editor's buffers are the daemon's owner's: a browser neither serves nor sees their text.
  if (command.serves_reads === true && !client.localTrust) {
    return failure(
      "PERMISSION_DENIED",
      "agent.attach: serves_reads is accepted on the unix socket only (an editor's bridge, `shard acp --daemon`)",
    );
  }
  if (command.serves_reads === true && role !== "interactive") {
    return failure("INVALID_REQUEST", 'agent.attach: serves_reads needs role "interactive"');
  }
  const answers = new Set<RequestKind>(role === "interactive" ? (command.answers ?? ALL_KINDS) : []);
  // A question the starting runtime asks again (a resumed turn) waits for this client.
  if (answers.size > 0) channel.joining.add(client.id);
  const started = await ctx.registry.ensureRunning(agentId);
  const info = ctx.agentInfo(agentId);
  if (!started.ok || !info) {
    if (channel.joining.delete(client.id)) ctx.respondersChanged(agentId);
    return started.ok
      ? notFound(agentId)
      : { ok: false, error: { ...started.error, data: { agent_id: agentId } } };
  }
  return answer({ status: info.status, info }, () => {
    client.send(channel.sync());
    channel.joining.delete(client.id);
    channel.attachments.set(client.id, { client, role, answers });
    if (command.serves_reads === true) {
      // The latest to declare it reads; the one it replaces has its open reads answered now.
      const previous = channel.reads.reader;
      if (previous !== undefined && previous !== client.id)
        channel.reads.left(ctx.forwarder, agentId, previous);
      channel.reads.reader = client.id;
    } else {
      channel.reads.left(ctx.forwarder, agentId, client.id);
    }
    ctx.respondersChanged(agentId, client);
  });
}

function allInfo(ctx: BrokerContext) {
  return ctx.registry.list().flatMap((a) => ctx.agentInfo(a.manifest.agent_id) ?? []);
}

function notFound(agentId: string) {
  return failure("NOT_FOUND", `no agent ${agentId}; agent.list shows the agents`);
}
