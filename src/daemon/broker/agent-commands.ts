/**
 * Per-agent commands on a daemon connection (docs/protocol.md §4, §5): they need `agent_id` and an
 * attachment, go to the agent's runtime (restoring a stopped one for new work), and permission
 * and UI answers pass the first-response-wins check before they reach it.
 */
import type { AgentCommand } from "../../types/command-table.ts";
import type { PermissionResponse, UiResponse } from "../../types/permissions.ts";
import type { WireError } from "../../wire/errors.ts";
import { errorResponse, okResponse } from "../../wire/response.ts";
import { unknownChoiceError } from "../../wire/unknown-choice.ts";
import type { AgentChannel } from "./agent-channel.ts";
import type { BrokerContext } from "./broker-context.ts";
import type { ClientConnection } from "./client-connection.ts";

/** New work restores a stopped runtime; reads and aborts never wake one (docs/protocol.md §2). */
const RESTORES: ReadonlySet<AgentCommand["type"]> = new Set([
  "prompt",
  "steer",
  "set_mode",
  "set_model",
  "set_reasoning_level",
  "set_sandbox",
  "set_budget",
  "session_op",
  "restore_checkpoint",
]);

export async function handleAgentCommand(
  ctx: BrokerContext,
  client: ClientConnection,
  command: AgentCommand,
): Promise<void> {
  const reply = (error: WireError) => client.send(tagged(errorResponse(command, error), command.agent_id));
  const agentId = command.agent_id;
  if (agentId === undefined) {
    return reply({
      code: "NOT_ATTACHED",
      message: `${command.type}: field "agent_id" is required on a daemon connection; agent.attach the agent first`,
    });
  }
  if (!ctx.registry.get(agentId)) {
    return reply({ code: "NOT_FOUND", message: `no agent ${agentId}; agent.list shows the agents` });
  }
  // The daemon's own limits are the daemon's to tell (docs/usage.md): no client sets them.
  if (command.type === "budget_limits") {
    return reply({
      code: "PERMISSION_DENIED",
      message:
        "budget_limits: only the daemon tells a runtime its limits; raise an agent's budget with set_budget",
    });
  }
  // The daemon's answers on a runtime's stdio link (protocol-additions §27) are the daemon's own:
  // a client sending one could hand the agent's tool a forged result.
  if (command.type === "daemon_response") {
    return reply({
      code: "PERMISSION_DENIED",
      message: "daemon_response: only the daemon answers a runtime's daemon_request; clients cannot send one",
    });
  }
  const channel = ctx.channel(agentId);
  const attachment = channel.attachments.get(client.id);
  const isAnswer = command.type === "permission_response" || command.type === "ui_response";
  const kind = command.type === "permission_response" ? "permission" : "ui";
  if (!attachment && isAnswer && ctx.answersFor(client, agentId, kind)) {
    // A child's request routed to this ancestor's client: it answers with the child's agent_id.
    return answer(ctx, client, channel, command);
  }
  if (!attachment) {
    return reply({
      code: "NOT_ATTACHED",
      message: `${command.type}: this connection is not attached to agent ${agentId}; send agent.attach first`,
    });
  }
  if (command.type === "permission_response" || command.type === "ui_response") {
    if (attachment.role === "observer") {
      return reply({
        code: "PERMISSION_DENIED",
        message: `${command.type}: observer attachments cannot answer requests; attach with role "interactive"`,
      });
    }
    return answer(ctx, client, channel, command);
  }
  if (command.type === "client_read_response") {
    // Only the reader the read was asked of answers it (./client-read-routing.ts).
    const refused = channel.reads.claim(client.id, command);
    if (refused !== undefined) return reply(refused);
  }
  const guarded = await ctx.beforeAgentCommand(command, {
    ok: (data) => client.send(tagged(okResponse(command, data), agentId)),
    fail: reply,
  });
  if (guarded) return;
  if (!ctx.registry.isServing(agentId)) {
    if (!RESTORES.has(command.type)) return notRunning(client, command, agentId);
    const started = await ctx.registry.ensureRunning(agentId);
    if (!started.ok) return reply({ ...started.error, data: { agent_id: agentId } });
  }
  // An abort names the aborting client: `turn_end.aborted_by` tells every client who stopped the turn.
  const forwarded = command.type === "abort" ? { ...command, source: client.source ?? client.id } : command;
  if (!ctx.forwarder.forward(agentId, forwarded, client)) {
    reply({
      code: "RUNTIME_START_FAILED",
      message: `the runtime of agent ${agentId} is not running; send the command again to restart it`,
    });
  }
}

function notRunning(client: ClientConnection, command: AgentCommand, agentId: string): void {
  if (command.type === "abort") {
    client.send(tagged(okResponse(command), agentId));
    return;
  }
  client.send(
    tagged(
      errorResponse(command, {
        code: "CONFLICT",
        message: `${command.type}: the runtime of agent ${agentId} is stopped; send a prompt or agent.attach to restore it`,
      }),
      agentId,
    ),
  );
}

/** First valid answer wins; late ones are accepted and dropped silently (docs/protocol.md §5.3). */
function answer(
  ctx: BrokerContext,
  client: ClientConnection,
  channel: AgentChannel,
  command: PermissionResponse | UiResponse,
): void {
  const agentId = channel.agentId;
  const open = channel.snapshot.pending_requests.find((r) => r.request_id === command.request_id);
  const kind = command.type === "permission_response" ? "permission_request" : "ui_request";
  if (!open || open.type !== kind || channel.requests.isClaimed(command.request_id)) {
    client.send(tagged(okResponse(command), agentId));
    return;
  }
  if (
    command.type === "permission_response" &&
    command.choice_id !== undefined &&
    open.type === "permission_request"
  ) {
    const choices = open.choices ?? [];
    if (!choices.some((c) => c.id === command.choice_id)) {
      const offered = choices.map((c) => c.id);
      client.send(
        tagged(
          errorResponse(command, unknownChoiceError(command.request_id, command.choice_id, offered)),
          agentId,
        ),
      );
      return;
    }
  }
  channel.requests.claim(command.request_id);
  // The answering connection names itself: `permission_resolved.source` tells every client who won.
  const forwarded =
    command.type === "permission_response" ? { ...command, source: client.source ?? client.id } : command;
  if (!ctx.forwarder.forward(agentId, forwarded, client)) {
    client.send(tagged(okResponse(command), agentId));
  }
}

function tagged<T extends object>(message: T, agentId: string | undefined): T & { agent_id?: string } {
  return agentId === undefined ? message : { ...message, agent_id: agentId };
}
