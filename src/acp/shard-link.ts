/**
 * What the ACP bridge needs from Shard, whichever way it reaches the agent: one agent's
 * commands and events. Direct mode is a `shard agent` child on stdio (runtime-link.ts); daemon
 * mode is one interactive attachment on the daemon's unix socket (daemon-link.ts).
 */
import type { ChannelResult, Command } from "../client/request-channel.ts";
import type { SyncEvent } from "../types/agent-events.ts";
import type { AgentEvent } from "../types/catalog.ts";
import type { McpServers } from "../types/mcp-server-config.ts";
import type { SandboxMode } from "../types/sandbox.ts";
import type { Failure } from "../wire/errors.ts";

export interface LinkEvents {
  /** One validated event of this link's agent, in order. */
  event(event: AgentEvent): void;
  /** The agent (or the daemon) went away: no more events. */
  closed(reason: string): void;
}

export interface ShardLink {
  /** The durable agent's id in daemon mode; undefined for a direct runtime. */
  readonly agentId: string | undefined;
  /** A per-agent command (the daemon link adds `agent_id`). */
  request(command: Command): Promise<ChannelResult>;
  /** Ask for a fresh `sync` after lost events (a re-attach; nothing to do on stdio). */
  resync(): void;
  /** Let the agent go: a direct runtime exits, a daemon agent stays as a durable agent. */
  close(): Promise<void>;
}

/**
 * A new agent in `cwd`, or an earlier one (`resume`: a Shard session id, or a daemon agent id);
 * `mcpServers`: the editor's MCP servers in mcp.json's shape, for a new runtime (direct) or a
 * new agent (daemon; an existing agent keeps the ones it was created with).
 */
export type LinkTarget = {
  cwd: string;
  resume?: string;
  mcpServers?: McpServers;
  /** The editor serves `fs/read_text_file`: a direct runtime asks it first (`--client-reads`), a daemon agent through this client (`serves_reads`). */
  clientReads?: boolean;
};

export type OpenedLink = { ok: true; link: ShardLink; sync: SyncEvent } | Failure;

/** Opens links to agents, one per ACP session. */
export interface ShardBackend {
  readonly kind: "direct" | "daemon";
  open(target: LinkTarget, events: LinkEvents): Promise<OpenedLink>;
}

/** The settings `shard acp` was started with, given to every agent it makes. */
export interface AgentFlags {
  model?: string;
  mode?: string;
  sandbox?: SandboxMode;
}
