/**
 * How an `Agent` reaches its runtime: straight over stdio (no `agent_id`) or through a daemon
 * connection (every per-agent command tagged with the agent's id, docs/protocol.md §4).
 */
import type { Command, RequestOptions } from "../../src/client/request-channel.ts";
import type { AgentCommand, AgentCommandType, CommandMap } from "../../src/types/command-table.ts";
import type { RequestKind } from "../../src/types/orchestrator.ts";
import type { Response } from "../../src/types/response.ts";

type WithoutRouting<C> = C extends unknown ? Omit<C, "id" | "agent_id"> : never;
/** A per-agent command as the SDK builds it: the link adds `id` and, on a daemon, `agent_id`. */
export type AgentOutbound = WithoutRouting<AgentCommand>;
/** One per-agent command type as the SDK builds it (what `Agent`'s typed calls take). */
export type AgentCallOf<T extends AgentCommandType> = { type: T } & WithoutRouting<
  Omit<CommandMap[T], "type">
>;

/** What happens to a permission or UI request while no handler is registered. */
export type UnhandledRequests = "deny" | "leave";

export interface AgentLink {
  readonly agentId: string | undefined;
  /** False for an observer attachment: it never answers requests. */
  readonly answers: boolean;
  readonly unhandled: UnhandledRequests;
  /** Sends a per-agent command (typed where it is built: `AgentOutbound`, `AgentCallOf`). */
  request(command: Command, options?: RequestOptions): Promise<Response>;
  send(command: AgentOutbound): void;
  /** Direct: end the process (stdin EOF); daemon: detach (the agent keeps running). */
  close(): Promise<void>;
  /** Events went missing: ask for a fresh `sync` (a daemon re-attach; stdio never skips one). */
  resync(): void;
  /**
   * Tells the daemon which request kinds this client answers (`agent.attach.answers`), so a
   * kind with no handler leaves it to other clients or the headless policy. Absent on stdio.
   */
  declareAnswers?(kinds: readonly RequestKind[]): Promise<void>;
  /** Daemon only (a durable agent): deletes it for good; undefined for a direct process. */
  readonly delete?: (options: DeleteAgentOptions) => Promise<void>;
}

export interface DeleteAgentOptions {
  /** Delete the agent's session files (and their forks) too; by default the session stays. */
  session?: boolean;
}
