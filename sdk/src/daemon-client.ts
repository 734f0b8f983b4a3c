/**
 * A connection to one daemon (docs/protocol.md §2, §5, §10): its registry (list, create, attach,
 * terminate), its sessions, its registry events, and the agents this client watches. When
 * the connection drops it reconnects with backoff (1 s, 2 s, 4 s … 30 s) and re-attaches to
 * every watched agent; each answers with a fresh `sync`, from which the agent resumes without
 * duplicates and reports a `gap` if events went by meanwhile.
 */

import type { BackoffOptions } from "../../src/client/backoff.ts";
import type { CallOf } from "../../src/client/command-result.ts";
import type { ChannelState } from "../../src/client/request-channel.ts";
import { DEFAULT_REQUEST_TIMEOUT_MS } from "../../src/client/request-channel.ts";
import type { AgentInfo } from "../../src/types/agent-info.ts";
import type { AgentEvent, DaemonEvent } from "../../src/types/catalog.ts";
import type { CommandType, ResultMap } from "../../src/types/command-table.ts";
import type { AgentCreateCommand, AttachRole, RequestKind } from "../../src/types/orchestrator.ts";
import type { SessionSummary } from "../../src/types/sessions.ts";
import type { DaemonUsageCommand, DaemonUsageResult } from "../../src/types/usage.ts";
import { failure } from "../../src/wire/errors.ts";
import { Agent } from "./agent.ts";
import type { AgentLink, DeleteAgentOptions, UnhandledRequests } from "./agent-link.ts";
import type { AgentOptions, AttachOptions } from "./agent-options.ts";
import { Connection } from "./connection.ts";
import { DaemonSubagents } from "./daemon-subagents.ts";
import { type DaemonTarget, describeTarget, openTransport } from "./daemon-target.ts";
import { DaemonWorkspaces } from "./daemon-workspaces.ts";
import { ShardError } from "./errors.ts";
import { DEFAULT_EVENT_BUFFER, EventQueue } from "./event-queue.ts";
import { CompiledPolicy, type PermissionPolicy } from "./permission-policy.ts";

export type ConnectDaemonOptions = DaemonTarget &
  AgentOptions & {
    /** Backoff between reconnect attempts; `false` gives up at the first drop. */
    reconnect?: BackoffOptions | false;
    requestTimeoutMs?: number;
    /** Without a handler: `leave` keeps requests open for other clients (default), `deny` refuses. */
    unhandledRequests?: UnhandledRequests;
  };

/** Connection notices, interleaved with the daemon's registry events. */
export type ConnectionNotice =
  | { type: "connection_lost"; reason: string; retry_in_ms: number | undefined }
  | { type: "connection_restored"; reattached: number };

export type DaemonStreamEvent = DaemonEvent | ConnectionNotice;

export type CreateAgentParams = Omit<AgentCreateCommand, "type" | "id">;

interface Watched {
  agent: Agent;
  role: AttachRole;
  /** The request kinds this client told the daemon it answers (`agent.attach.answers`). */
  answers: RequestKind[];
}

/** `daemon.usage`: how far back and how to group. */
export type UsageQuery = Pick<DaemonUsageCommand, "since" | "by">;

export class DaemonClient {
  private readonly connection: Connection;
  private readonly watched = new Map<string, Watched>();
  private readonly streams = new Set<EventQueue<DaemonStreamEvent>>();
  private stopped = false;

  /** The daemon's git-worktree workspaces (each launches a fresh, attached agent). */
  readonly workspaces: DaemonWorkspaces;
  /** The daemon's subagent jobs, for the parent agent each call names. */
  readonly subagents: DaemonSubagents;

  private constructor(private readonly options: ConnectDaemonOptions) {
    this.subagents = new DaemonSubagents((command) => this.call(command));
    this.workspaces = new DaemonWorkspaces(
      (command) => this.call(command),
      (agentId, attach) => this.attach(agentId, attach),
    );
    this.connection = new Connection(
      {
        connect: async (sink) => {
          try {
            return { ok: true, transport: await openTransport(options, sink) };
          } catch (err) {
            const error = err instanceof ShardError ? err : new ShardError("NOT_ATTACHED", String(err));
            return { ...failure(error.code, error.message), retry: true };
          }
        },
        waitForHello: true,
        reconnect: options.reconnect ?? {},
        timeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      },
      {
        agentEvent: (event) => this.agentEvent(event),
        daemonEvent: (event) => this.daemonEvent(event),
        state: (state) => this.stateChanged(state),
      },
    );
  }

  /** Connects (once, no retry: a wrong address fails at once) and waits for the daemon's hello. */
  static async connect(options: ConnectDaemonOptions = {}): Promise<DaemonClient> {
    const client = new DaemonClient(options);
    try {
      await client.connection.open();
    } catch (err) {
      if (!(err instanceof ShardError)) throw err;
      throw new ShardError(err.code, `the daemon at ${client.where}: ${err.message}`);
    }
    return client;
  }

  get where(): string {
    return describeTarget(this.options);
  }

  get connected(): boolean {
    return this.connection.isOpen;
  }

  // ── registry ───────────────────────────────────────────────────────────

  /**
   * What the agents spent, from the daemon's cost ledger (docs/usage.md): `since` is `30m`,
   * `12h`, `7d` (default `1d`) or epoch ms; `by` groups per agent (default), model, job,
   * workspace or day. A group whose calls were all unpriced has `cost_usd: null` (unknown).
   */
  async usage(query: UsageQuery = {}): Promise<DaemonUsageResult> {
    return this.call({ type: "daemon.usage", ...query });
  }

  async listAgents(): Promise<AgentInfo[]> {
    return (await this.call({ type: "agent.list" })).agents;
  }

  /**
   * Creates a durable agent and attaches to it. With `ephemeral: true` the daemon deletes it
   * when this connection closes (`close()`, the script's exit, a crash — or a dropped
   * connection: the handle then ends with `NOT_FOUND` instead of re-attaching). `permissions`
   * is the agent's policy (kept by this client, not sent): see `AgentOptions`.
   */
  async createAgent(
    { permissions, ...params }: CreateAgentParams & { permissions?: PermissionPolicy },
    attach: AttachOptions = {},
  ): Promise<Agent> {
    // A malformed rule fails before an agent exists.
    if (permissions) CompiledPolicy.compile(permissions);
    const { agent_id } = await this.call({ type: "agent.create", ...params });
    return this.attach(agent_id, permissions ? { permissions, ...attach } : attach);
  }

  /** Watches an agent (restoring its runtime if stopped); the same agent is attached once. */
  async attach(agentId: string, options: AttachOptions = {}): Promise<Agent> {
    const known = this.watched.get(agentId);
    if (known) return known.agent;
    const role = options.role ?? "interactive";
    const agentOptions = options.permissions
      ? { ...this.options, permissions: options.permissions }
      : this.options;
    const agent = new Agent(this.link(agentId, role), agentOptions);
    // No handler yet: unless this client denies what it cannot answer, or a policy answers its
    // permission requests, it answers nothing, so a request with nobody else to answer it gets
    // the headless policy instead of hanging.
    const answers: RequestKind[] =
      role !== "interactive"
        ? []
        : this.options.unhandledRequests === "deny"
          ? ["permission", "ui"]
          : agentOptions.permissions
            ? ["permission"]
            : [];
    // Registered before the request: the sync follows the attach answer immediately.
    this.watched.set(agentId, { agent, role, answers });
    try {
      await this.call(this.attachCommand(agentId));
    } catch (err) {
      this.watched.delete(agentId);
      throw err;
    }
    return agent;
  }

  /** The agents this client watches now. */
  attached(): Agent[] {
    return [...this.watched.values()].map((w) => w.agent);
  }

  /** Stops the agent's runtime once it is inactive (its identity and session stay). */
  async terminate(agentId: string): Promise<{ deferred: boolean }> {
    return await this.call({ type: "agent.terminate", agent_id: agentId });
  }

  async kill(agentId: string, force = false): Promise<void> {
    await this.call({ type: "agent.kill", agent_id: agentId, force });
  }

  /** Sets the agent's name (every client hears `agent_updated`); answers with its listing. */
  async rename(agentId: string, name: string): Promise<AgentInfo> {
    return (await this.call({ type: "agent.rename", agent_id: agentId, name })).info;
  }

  /**
   * Deletes the agent for good: its runtime is killed and its manifest removed; its session
   * stays unless `{ session: true }`. `CONFLICT` while a subagent under it is running, or (with
   * `session`) while another agent drives that session. Every client hears `agent_deleted`.
   */
  async delete(agentId: string, options: DeleteAgentOptions = {}): Promise<void> {
    await this.call({
      type: "agent.delete",
      agent_id: agentId,
      ...(options.session === true ? { session: true } : {}),
    });
  }

  // ── sessions ───────────────────────────────────────────────────────────

  /** Durable sessions, newest first; `cwd` keeps those of one directory. */
  async listSessions(cwd?: string): Promise<SessionSummary[]> {
    const data = await this.call({ type: "session.list", ...(cwd !== undefined ? { cwd } : {}) });
    return data.sessions;
  }

  /** The agent that drives a session (adopted if none does yet), attached. */
  async openSession(sessionId: string, attach: AttachOptions = {}): Promise<Agent> {
    const data = await this.call({ type: "session.activate", session_id: sessionId });
    return this.attach(data.agent_id, attach);
  }

  // ── events ─────────────────────────────────────────────────────────────

  /** Registry events (agent_spawned, agent_status_changed, agent_activity, …) and connection notices. */
  events(): AsyncIterableIterator<DaemonStreamEvent> {
    const limit = this.options.maxBufferedEvents ?? DEFAULT_EVENT_BUFFER;
    const queue: EventQueue<DaemonStreamEvent> = new EventQueue(limit, () => this.streams.delete(queue));
    if (this.stopped) queue.end();
    else this.streams.add(queue);
    return queue;
  }

  /** Closes the connection; watched agents end for this client (they keep running in the daemon). */
  close(): void {
    this.stopped = true;
    this.connection.close("the SDK client closed its daemon connection");
    this.finish({ code: "NOT_ATTACHED", message: "the SDK client closed its daemon connection" });
  }

  // ── connection ─────────────────────────────────────────────────────────

  private agentEvent(event: AgentEvent): void {
    // The connection's own hello is connection-scoped: it never names an agent.
    if (event.type === "hello" || event.agent_id === undefined) return;
    this.watched.get(event.agent_id)?.agent.receive(event);
  }

  private daemonEvent(event: DaemonEvent): void {
    if (event.type === "agent_exited") {
      this.watched.get(event.agent_id)?.agent.runtimeExited(event.reason);
    }
    if (event.type === "agent_deleted") {
      this.watched
        .get(event.agent_id)
        ?.agent.end({ code: "NOT_FOUND", message: `agent ${event.agent_id} was deleted` });
      this.watched.delete(event.agent_id);
    }
    this.publish(event);
  }

  private stateChanged(state: ChannelState): void {
    if (this.stopped) return;
    switch (state.kind) {
      case "connecting":
        return;
      case "open":
        if (state.reconnected) void this.reattach();
        return;
      case "waiting":
        for (const { agent } of this.watched.values()) agent.awaitSync();
        this.publish({ type: "connection_lost", reason: state.reason, retry_in_ms: state.retryInMs });
        return;
      case "closed":
        // Only `reconnect: false` ends here (a failed first connect is thrown by `connect`).
        this.publish({ type: "connection_lost", reason: state.error.message, retry_in_ms: undefined });
        this.finish({ code: "NOT_ATTACHED", message: state.error.message });
        this.stopped = true;
        return;
    }
  }

  /** Re-attaches every watched agent; each answers with a fresh `sync`. */
  private async reattach(): Promise<void> {
    let reattached = 0;
    await Promise.all(
      [...this.watched].map(async ([agentId, { agent }]) => {
        try {
          await this.call(this.attachCommand(agentId));
          reattached++;
        } catch (err) {
          // A lost connection retries; anything else (the agent was deleted) ends it for good.
          if (err instanceof ShardError && err.code === "NOT_ATTACHED") return;
          this.watched.delete(agentId);
          agent.end(
            err instanceof ShardError ? err.toJSON() : { code: "INTERNAL_ERROR", message: String(err) },
          );
        }
      }),
    );
    this.publish({ type: "connection_restored", reattached });
  }

  private link(agentId: string, role: AttachRole): AgentLink {
    return {
      agentId,
      answers: role === "interactive",
      unhandled: this.options.unhandledRequests ?? "leave",
      request: (command, options) => this.connection.request({ ...command, agent_id: agentId }, options),
      send: (command) => this.connection.send({ ...command, agent_id: agentId }),
      // The attach answer is followed by a fresh sync, which replaces the state.
      resync: () => void this.call(this.attachCommand(agentId)).catch(() => undefined),
      delete: (options) => this.delete(agentId, options),
      declareAnswers: async (kinds) => {
        const watched = this.watched.get(agentId);
        if (!watched || role !== "interactive" || sameKinds(watched.answers, kinds)) return;
        watched.answers = [...kinds];
        // A second attach on this connection updates what it answers (and re-sends `sync`).
        await this.call(this.attachCommand(agentId));
      },
      close: async () => {
        const watched = this.watched.get(agentId);
        this.watched.delete(agentId);
        if (this.connection.isOpen) {
          await this.connection.call({ type: "agent.detach", agent_id: agentId }).catch(() => undefined);
        }
        watched?.agent.end({ code: "NOT_ATTACHED", message: `detached from agent ${agentId}` });
      },
    };
  }

  /** `agent.attach` as this client attaches now: its role, and for an interactive one what it answers. */
  private attachCommand(agentId: string): CallOf<"agent.attach"> {
    const watched = this.watched.get(agentId);
    const role = watched?.role ?? "interactive";
    return role === "interactive"
      ? { type: "agent.attach", agent_id: agentId, role, answers: watched?.answers ?? [] }
      : { type: "agent.attach", agent_id: agentId, role };
  }

  private call<T extends CommandType>(command: CallOf<T>): Promise<ResultMap[T]> {
    return this.connection.call(command);
  }

  private publish(event: DaemonStreamEvent): void {
    for (const s of this.streams) s.push(event);
  }

  private finish(error: { code: "NOT_ATTACHED"; message: string }): void {
    for (const { agent } of this.watched.values()) agent.end(error);
    this.watched.clear();
    for (const s of this.streams) s.end();
    this.streams.clear();
  }
}

export function connectDaemon(options: ConnectDaemonOptions = {}): Promise<DaemonClient> {
  return DaemonClient.connect(options);
}

function sameKinds(a: readonly RequestKind[], b: readonly RequestKind[]): boolean {
  return a.length === b.length && a.every((k) => b.includes(k));
}
