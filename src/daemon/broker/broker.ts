/**
 * The broker (docs/architecture.md §3, §5): owns every client connection, routes what they send,
 * and turns what runtimes emit into the daemon's stream — per-agent `seq`, snapshot, fan-out to
 * attachments tagged with `agent_id`, headless answers — plus registry events to everyone.
 */

import type { PendingRequest } from "../../snapshot/agent-snapshot.ts";
import { describeError } from "../../support/describe-error.ts";
import type { SyncEvent } from "../../types/agent-events.ts";
import type { AgentInfo, RuntimeState } from "../../types/agent-info.ts";
import type { AgentStatus } from "../../types/agent-state.ts";
import type { AgentEvent } from "../../types/catalog.ts";
import {
  type AgentCommand,
  type AnyCommand,
  type DaemonCommand,
  isAgentCommand,
} from "../../types/command-table.ts";
import type { RequestKind } from "../../types/orchestrator.ts";
import { isThinkingDeltaLine } from "../../wire/delta-line.ts";
import type { WireError } from "../../wire/errors.ts";
import type { RunTaken } from "../../wire/jsonl-decoder.ts";
import { errorResponse, okResponse, salvageCorrelation } from "../../wire/response.ts";
import { commandValidator } from "../../wire/validate.ts";
import { scopeRefusal } from "../agent-scope.ts";
import type { GenerationEnded, Registry, RegistryEvents } from "../registry/registry.ts";
import type { RuntimeMessage, RuntimeReady } from "../registry/runtime-process.ts";
import { shuttingDownFailure } from "../registry/shutting-down.ts";
import { type Activity, nextActivity, sameActivity } from "./activity.ts";
import { AgentChannel } from "./agent-channel.ts";
import { handleAgentCommand } from "./agent-commands.ts";
import { agentInfo, agentStatus } from "./agent-info.ts";
import { removeAgent } from "./agent-removal.ts";
import type { BrokerContext, CommandReply } from "./broker-context.ts";
import type { ClientConnection, OrchestratorEvent } from "./client-connection.ts";
import { type Answer, type DaemonHandlers, isLater, runHandler } from "./command-handlers.ts";
import { EncodedMessage } from "./encoded-message.ts";
import { EphemeralAgents } from "./ephemeral-agents.ts";
import { RequestArbiter } from "./request-arbiter.ts";
import {
  closeDelegated,
  type Hierarchy,
  responderChannel,
  respondersChanged,
  routeRequest,
} from "./responder-routing.ts";
import { RuntimeForwarder } from "./runtime-forwarder.ts";
import { PASSES_DURING_SHUTDOWN } from "./shutdown-gate.ts";

export interface BrokerOptions {
  /** How long an unanswerable request waits before the headless path denies it. */
  headlessTimeoutMs: number;
  requestShutdown(force: boolean): void;
  log(line: string): void;
}

/**
 * What a subsystem (the subagent jobs) wants to hear of agents and clients, and its say on a
 * per-agent command before the runtime gets it. Registered from daemon.ts, so the broker
 * imports no feature folder.
 */
export interface AgentHooks {
  /** Whether the hook answered the command itself (the lease guard of a leased child). */
  beforeAgentCommand(command: AgentCommand, reply: CommandReply): Promise<boolean>;
  agentEvent(agentId: string, event: AgentEvent): void;
  /** A runtime generation of the agent is ready (hello + sync). */
  runtimeReady(agentId: string): void;
  /** A `message_delta` the broker forwarded unparsed (the fast path): not an error, nothing more. */
  agentDelta(agentId: string): void;
  runtimeEnded(agentId: string, reason: string): void;
  clientClosed(clientId: string): void;
}

export class Broker implements BrokerContext, RegistryEvents {
  readonly forwarder: RuntimeForwarder;
  readonly ephemeral = new EphemeralAgents();
  private registryRef: Registry | undefined;
  private readonly clients = new Map<string, ClientConnection>();
  private readonly channels = new Map<string, AgentChannel>();
  /** Last status each agent was announced with, so `agent_status_changed` fires on change only. */
  private readonly announced = new Map<string, string>();
  private handlers: DaemonHandlers | undefined;
  private hooks: AgentHooks | undefined;

  constructor(private readonly options: BrokerOptions) {
    this.forwarder = new RuntimeForwarder((agentId, command) => this.registry.send(agentId, command));
  }

  /**
   * The daemon wires the broker once at start: the registry it routes to, every daemon
   * command's handler, and the subsystems' hooks.
   */
  bind(registry: Registry, handlers: DaemonHandlers, hooks: AgentHooks): void {
    this.registryRef = registry;
    this.handlers = handlers;
    this.hooks = hooks;
  }

  get registry(): Registry {
    if (!this.registryRef) throw new Error("broker used before a registry was bound");
    return this.registryRef;
  }

  // ── clients ────────────────────────────────────────────────────────────

  open(client: ClientConnection): void {
    this.clients.set(client.id, client);
  }

  isOpen(client: ClientConnection): boolean {
    return this.clients.get(client.id) === client;
  }

  /**
   * A closed connection detaches from everything; its open requests stay open
   * (docs/protocol.md §5.4).
   */
  close(client: ClientConnection): void {
    this.clients.delete(client.id);
    this.forwarder.clientClosed(client.id);
    this.hooks?.clientClosed(client.id);
    for (const channel of this.channels.values()) {
      const joining = channel.joining.delete(client.id);
      if (channel.attachments.delete(client.id) || joining) this.respondersChanged(channel.agentId);
      channel.reads.left(this.forwarder, channel.agentId, client.id);
    }
    for (const agentId of this.ephemeral.release(client.id)) void this.removeEphemeral(agentId);
  }

  /** An ephemeral agent whose creator left; one that cannot go yet (a running subagent) stays. */
  private async removeEphemeral(agentId: string): Promise<void> {
    if (this.registry.shuttingDown) return; // the next start deletes it (its manifest says so)
    const removed = await removeAgent(this, agentId);
    if (!removed.ok)
      this.options.log(
        `agent ${agentId}: ephemeral, its creator closed, but it could not be deleted: ${removed.error.message}`,
      );
  }

  /**
   * One parsed inbound message, validated against the schema of its `type`, then routed: a
   * per-agent command to its runtime, a daemon command to the handler registered for its type.
   * Every failure is a `response` with `{code, message}`.
   */
  async receive(client: ClientConnection, raw: unknown): Promise<void> {
    const checked = commandValidator.validate(raw);
    if (!checked.ok) {
      client.send(errorResponse(salvageCorrelation(raw), checked.error));
      return;
    }
    const command = checked.message;
    const outOfScope = client.agentScope === undefined ? undefined : scopeRefusal(command, client.agentScope);
    if (outOfScope !== undefined) {
      client.send(errorResponse(command, outOfScope));
      return;
    }
    if (this.registry.shuttingDown && !PASSES_DURING_SHUTDOWN[command.type]) {
      const refused = shuttingDownFailure(`${command.type} is refused`).error;
      const response = errorResponse(command, refused);
      const agentId = isAgentCommand(command) ? command.agent_id : undefined;
      client.send(agentId === undefined ? response : { ...response, agent_id: agentId });
      return;
    }
    try {
      if (isAgentCommand(command)) return await handleAgentCommand(this, client, command);
      if (!this.handlers) throw new Error("broker used before its handlers were registered");
      const outcome = await runHandler(this.handlers, client, command.type, command);
      if (isLater(outcome)) {
        outcome.later.then(
          (answer) => this.reply(client, command, answer),
          (err: unknown) => this.internalError(client, command, err),
        );
        return;
      }
      this.reply(client, command, outcome);
    } catch (err) {
      this.internalError(client, command, err);
    }
  }

  private reply(client: ClientConnection, command: DaemonCommand, answer: Answer<object>): void {
    // A client gone while its command ran hears nothing, and nothing is done on its behalf.
    if (!this.isOpen(client)) return;
    client.send(answer.ok ? okResponse(command, answer.result) : errorResponse(command, answer.error));
    if (answer.ok) answer.after?.();
  }

  private internalError(client: ClientConnection, command: AnyCommand, err: unknown): void {
    this.options.log(
      `internal error handling ${command.type}: ${err instanceof Error ? err.stack : String(err)}`,
    );
    client.send(errorResponse(command, { code: "INTERNAL_ERROR", message: describeError(err) }));
  }

  /** Input that never parsed (bad JSON, over-size line or frame). */
  unparsable(client: ClientConnection, error: WireError): void {
    client.send(errorResponse({ type: "unknown" }, error));
  }

  // ── context for the command handlers ───────────────────────────────────

  channel(agentId: string): AgentChannel {
    let channel = this.channels.get(agentId);
    if (!channel) {
      const requests = new RequestArbiter({
        policy: () => this.registry.get(agentId)?.manifest.headless_policy ?? "deny",
        timeoutMs: this.options.headlessTimeoutMs,
        answerHeadless: (request, reason) => this.answerHeadless(agentId, request, reason),
        timedOut: (request) => {
          const event = this.channel(agentId).apply({
            type: "error",
            code: "TIMEOUT",
            message: `request ${request.request_id} timed out: nobody answered within ${this.options.headlessTimeoutMs} ms`,
            fatal: false,
          });
          this.channel(agentId).fanOut(event);
        },
      });
      channel = new AgentChannel(agentId, requests);
      this.channels.set(agentId, channel);
    }
    return channel;
  }

  agentInfo(agentId: string): AgentInfo | undefined {
    const agent = this.registry.get(agentId);
    const defaults = { env: this.registry.env, home: this.registry.home };
    return agent ? agentInfo(agent, this.channels.get(agentId), defaults) : undefined;
  }

  broadcast(event: OrchestratorEvent): void {
    // Deltas an agent forwarded before this reach its clients first.
    for (const channel of this.channels.values()) channel.flushRun();
    const encoded = EncodedMessage.of(event);
    for (const client of this.clients.values()) client.sendEncoded(encoded);
  }

  forget(agentId: string): void {
    this.ephemeral.drop(agentId);
    const channel = this.channels.get(agentId);
    channel?.requests.reset();
    channel?.delegates.clear();
    this.channels.delete(agentId);
    this.announced.delete(agentId);
  }

  respondersChanged(agentId: string, joined?: ClientConnection): void {
    respondersChanged(this.hierarchy, agentId, joined);
  }

  beforeAgentCommand(command: AgentCommand, reply: CommandReply): Promise<boolean> {
    return this.hooks?.beforeAgentCommand(command, reply) ?? Promise.resolve(false);
  }

  answersFor(client: ClientConnection, agentId: string, kind: RequestKind): boolean {
    return (
      responderChannel(this.hierarchy, agentId, kind)?.attachments.get(client.id)?.answers.has(kind) === true
    );
  }

  private readonly hierarchy: Hierarchy = {
    parentOf: (agentId) => this.registry.get(agentId)?.manifest.parent_agent_id,
    channelOf: (agentId) => this.channels.get(agentId),
    agentIds: () => this.registry.list().map((a) => a.manifest.agent_id),
    isLive: (agentId) => this.registry.isServing(agentId),
  };

  requestShutdown(force: boolean): void {
    this.options.requestShutdown(force);
  }

  /** Whether the agent is busy (never reaped, terminate deferred). */
  isActive(agentId: string): boolean {
    const channel = this.channels.get(agentId);
    if (!channel) return false;
    const status = channel.status;
    return status !== "idle" && status !== "error";
  }

  /** The registry keeps whether the agent works and whether it waits on a person (reaping, shutdown). */
  private tellActivity(agentId: string): void {
    const status = this.channels.get(agentId)?.snapshot.status;
    const waitsOnPerson = status === "waiting_for_permission" || status === "waiting_for_ui";
    this.registry.activityChanged(agentId, this.isActive(agentId), waitsOnPerson);
  }

  /** The runtime's state replaced mid-generation: the snapshot, every attached client and the manifest's session follow. */
  private resynced(agentId: string, sync: SyncEvent): void {
    const channel = this.channel(agentId);
    channel.replaceState(sync);
    if (channel.attachments.size > 0) {
      const encoded = EncodedMessage.of(channel.sync());
      for (const a of channel.attachments.values()) a.client.sendEncoded(encoded);
    }
    if (sync.session_id !== undefined) this.registry.recordSession(agentId, sync.session_id);
  }

  // ── registry events ────────────────────────────────────────────────────

  ready(agentId: string, epoch: number, ready: RuntimeReady): void {
    const channel = this.channel(agentId);
    channel.requests.reset();
    channel.replaceFromRuntime(epoch, ready);
    this.tellActivity(agentId);
    // A replacement generation re-syncs everyone already attached (docs/protocol.md §5.4,
    // `runtime_epoch`).
    if (channel.attachments.size > 0) {
      const sync = EncodedMessage.of(channel.sync());
      for (const a of channel.attachments.values()) a.client.sendEncoded(sync);
    }
    this.hooks?.runtimeReady(agentId);
  }

  message(agentId: string, message: RuntimeMessage, line: string): void {
    // Deltas the runtime sent before this message reach the clients before whatever it causes.
    this.channels.get(agentId)?.flushRun();
    if (message.type === "response") {
      this.forwarder.response(agentId, message);
      return;
    }
    // hello belongs to start-up. A later sync is the runtime's state replaced (a conversation
    // restore switched its session to a fork): handled like a new generation's.
    if (message.type === "hello") return;
    if (message.type === "sync") {
      this.resynced(agentId, message);
      return;
    }
    const channel = this.channel(agentId);
    const before = channel.status;
    const event = channel.forward(message, line);
    this.hooks?.agentEvent(agentId, event);
    switch (event.type) {
      case "permission_request":
      case "ui_request":
        routeRequest(this.hierarchy, channel, event);
        break;
      case "client_read_request":
        channel.reads.asked(this.forwarder, agentId, event);
        break;
      case "permission_resolved":
      case "ui_resolved":
        channel.requests.resolved(event.request_id);
        closeDelegated(channel, event);
        break;
      case "mode_changed":
        this.registry.recordMode(agentId, event.mode);
        break;
      case "sandbox_changed":
        this.registry.recordSandbox(agentId, event.sandbox.mode);
        break;
      default:
        break;
    }
    if (channel.status !== before) {
      this.tellActivity(agentId);
      this.announce(agentId);
    }
    this.reportActivity(channel, event);
  }

  /**
   * What `message` does with a `message_delta`, for a line taken unparsed: forwarded (with the
   * deltas next to it, at the latest when the chunk of output ends: `outputEnd`) and folded
   * later, heard by the hooks, and its activity phase. A delta changes no status and routes no
   * request.
   */
  deltaLine(agentId: string, line: string, seqAt: number, ascii: boolean): void {
    const channel = this.channel(agentId);
    channel.forwardDelta(line, seqAt, ascii);
    this.hooks?.agentDelta(agentId);
    // nextActivity of a message_delta, without building the event.
    const phase = isThinkingDeltaLine(line) ? "thinking" : "streaming";
    if (channel.activity.phase !== phase || channel.activity.tool_name !== undefined)
      this.setActivity(channel, { phase }, channel.status);
  }

  /**
   * `deltaLine` for a run of lines taken in place (RuntimeProcessOptions.onDeltaRun): only
   * lines of the agent's current activity phase, so the run changes no activity (a line that
   * would is left to `deltaLine`, which tells the clients first).
   */
  deltaRun(agentId: string, text: string, from: number, bytes: Uint8Array): RunTaken | undefined {
    const channel = this.channel(agentId);
    const { phase, tool_name } = channel.activity;
    if (tool_name !== undefined || (phase !== "streaming" && phase !== "thinking")) return undefined;
    const taken = channel.forwardDeltaRun(text, from, bytes, phase === "thinking");
    if (taken !== undefined) this.hooks?.agentDelta(agentId);
    return taken;
  }

  /** A chunk of the runtime's output has been handled: the deltas it forwarded leave now. */
  outputEnd(agentId: string): void {
    this.channels.get(agentId)?.flushRun();
  }

  stateChanged(agentId: string, _state: RuntimeState, ended?: GenerationEnded): void {
    if (ended) {
      const channel = this.channel(agentId);
      channel.requests.reset();
      channel.delegates.clear();
      channel.reads.runtimeEnded();
      channel.runtimeEnded();
      // A dropped link to a placement stops the agent (docs/placements.md): nothing failed in it.
      const calm = ended.expected || ended.linkLost !== undefined;
      this.setActivity(channel, { phase: calm ? "idle" : "error" }, calm ? "idle" : "error");
      const reason = ended.linkLost ?? ended.exit.reason;
      this.forwarder.runtimeEnded(agentId, reason);
      this.hooks?.runtimeEnded(agentId, reason);
      if (!calm) {
        this.broadcast({
          type: "agent_exited",
          agent_id: agentId,
          runtime_state: "failed",
          reason: ended.exit.reason,
          exit_code: ended.exit.code,
        });
      }
    }
    this.announce(agentId, ended?.linkLost);
  }

  private reportActivity(channel: AgentChannel, event: AgentEvent): void {
    const next = nextActivity(channel.activity, event);
    if (next) this.setActivity(channel, next, channel.status);
  }

  private setActivity(channel: AgentChannel, next: Activity, status: AgentStatus): void {
    if (sameActivity(next, channel.activity)) return;
    channel.activity = next;
    this.broadcast({
      type: "agent_activity",
      agent_id: channel.agentId,
      timestamp: Date.now(),
      phase: next.phase,
      status,
      ...(next.tool_name !== undefined ? { tool_name: next.tool_name } : {}),
    });
  }

  /** `detail`: why, when a person needs it (a dropped link to a placement names the host). */
  private announce(agentId: string, detail?: string): void {
    const agent = this.registry.get(agentId);
    if (!agent) return;
    const status = agentStatus(agent, this.channels.get(agentId));
    const key = `${status}/${agent.runtimeState}`;
    if (this.announced.get(agentId) === key && detail === undefined) return;
    this.announced.set(agentId, key);
    this.broadcast({
      type: "agent_status_changed",
      agent_id: agentId,
      status,
      runtime_state: agent.runtimeState,
      ...(detail !== undefined ? { detail } : {}),
    });
  }

  private answerHeadless(agentId: string, request: PendingRequest, reason: string): void {
    const answer =
      request.type === "permission_request"
        ? {
            type: "permission_response" as const,
            request_id: request.request_id,
            decision: "deny" as const,
            source: "headless",
            reason,
          }
        : { type: "ui_response" as const, request_id: request.request_id, value: null };
    this.forwarder.forward(agentId, answer);
  }
}
