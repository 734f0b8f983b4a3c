/** What the command handlers need from the broker (an interface, so handlers never import it). */

import type { AgentInfo } from "../../types/agent-info.ts";
import type { AgentCommand } from "../../types/command-table.ts";
import type { RequestKind } from "../../types/orchestrator.ts";
import type { WireError } from "../../wire/errors.ts";
import type { Registry } from "../registry/registry.ts";
import type { AgentChannel } from "./agent-channel.ts";
import type { ClientConnection, OrchestratorEvent } from "./client-connection.ts";
import type { EphemeralAgents } from "./ephemeral-agents.ts";
import type { RuntimeForwarder } from "./runtime-forwarder.ts";

/** How a hook that takes over a per-agent command answers it (tagged with its agent). */
export interface CommandReply {
  ok(data: object): void;
  fail(error: WireError): void;
}

export interface BrokerContext {
  readonly registry: Registry;
  readonly forwarder: RuntimeForwarder;
  /** The channel of an agent the registry knows (created on first use). */
  channel(agentId: string): AgentChannel;
  agentInfo(agentId: string): AgentInfo | undefined;
  broadcast(event: OrchestratorEvent): void;
  /** The ephemeral agents each connection created, deleted when it closes. */
  readonly ephemeral: EphemeralAgents;
  /** Drops everything the broker holds for a deleted agent (its channel, its attachments). */
  forget(agentId: string): void;
  /** Whether the client is still connected (an await may outlive it). */
  isOpen(client: ClientConnection): boolean;
  /**
   * An attachment of `agentId` was added (`joined`) or removed: re-checks the headless timers of
   * it and its descendants, and shows a joining responder the requests routed to it.
   */
  respondersChanged(agentId: string, joined?: ClientConnection): void;
  /** Whether `client` answers for `agentId` as an interactive client of its nearest responding ancestor. */
  answersFor(client: ClientConnection, agentId: string, kind: RequestKind): boolean;
  /**
   * The subagent jobs' say on a per-agent command of an attached client before the runtime
   * gets it (the lease guard of a leased child; an aborted parent's waits): whether they
   * answered it themselves.
   */
  beforeAgentCommand(command: AgentCommand, reply: CommandReply): Promise<boolean>;
  requestShutdown(force: boolean): void;
  /** Whether the agent is doing work (a turn, a dialog, compaction). */
  isActive(agentId: string): boolean;
}
