/**
 * Daemon mode (`shard acp --daemon`): each ACP session is a durable agent of the running
 * daemon, and this bridge one interactive client of it on the unix socket. It answers
 * permission requests only (the `ask` tool's questions go to the web), the daemon's first
 * answer wins, and closing the session detaches: the agent stays. The ACP session id is the
 * agent id; `session/load` of a Shard session id adopts that session as a new agent.
 */
import { basename, join } from "node:path";
import { RequestChannel } from "../client/request-channel.ts";
import { unixSocketConnect } from "../client/unix-socket-connect.ts";
import type { SyncEvent } from "../types/agent-events.ts";
import type { AgentCreateCommand } from "../types/orchestrator.ts";
import { failure } from "../wire/errors.ts";
import { asAgentEvent, asResponse } from "../wire/validate.ts";
import { shardCall } from "./shard-call.ts";
import type { AgentFlags, LinkEvents, LinkTarget, OpenedLink, ShardBackend } from "./shard-link.ts";

/** How long the daemon may take to start the agent's runtime and send its `sync`. */
const ATTACH_TIMEOUT_MS = 60_000;

export interface DaemonBackendOptions {
  home: string;
  flags: AgentFlags;
}

export class DaemonBackend implements ShardBackend {
  readonly kind = "daemon";

  constructor(private readonly options: DaemonBackendOptions) {}

  async open(target: LinkTarget, events: LinkEvents): Promise<OpenedLink> {
    let agentId: string | undefined;
    let synced: ((sync: SyncEvent) => void) | undefined;
    const channel = new RequestChannel(
      {
        connect: unixSocketConnect(join(this.options.home, "daemon.sock")),
        idPrefix: "acp-",
        readResponse: asResponse,
        timeoutMs: ATTACH_TIMEOUT_MS,
      },
      {
        message: (value) => {
          const event = asAgentEvent(value);
          if (
            event === undefined ||
            agentId === undefined ||
            !("agent_id" in event) ||
            event.agent_id !== agentId
          )
            return;
          if (event.type === "sync") synced?.(event);
          events.event(event);
        },
        state: (state) => {
          if (state.kind === "closed") events.closed(state.error.message);
        },
      },
    );
    const opened = await channel.open();
    if (!opened.ok) {
      return failure(
        "NOT_FOUND",
        `no daemon is running for SHARD_HOME=${this.options.home}; start one with \`shard daemon\``,
      );
    }
    try {
      agentId = await this.agentFor(channel, target);
      // The editor's unsaved buffers: the daemon asks this connection for the agent's reads.
      const reads = target.clientReads === true ? { serves_reads: true } : {};
      const id = agentId;
      const firstSync = new Promise<SyncEvent>((resolve) => {
        synced = resolve;
      });
      await shardCall(channel, {
        type: "agent.attach",
        agent_id: id,
        role: "interactive",
        answers: ["permission"],
        ...reads,
      });
      const sync = await firstSync;
      synced = undefined;
      return {
        ok: true,
        sync,
        link: {
          agentId: id,
          request: (command) => channel.request({ ...command, agent_id: id }),
          resync: () =>
            void channel.request({
              type: "agent.attach",
              agent_id: id,
              role: "interactive",
              answers: ["permission"],
              ...reads,
            }),
          close: async () => {
            await channel.request({ type: "agent.detach", agent_id: id });
            channel.close("the editor closed the session");
          },
        },
      };
    } catch (err) {
      channel.close("the session could not start");
      const message = err instanceof Error ? err.message : String(err);
      return failure("RUNTIME_START_FAILED", message);
    }
  }

  /** The agent a session drives: the one named, one adopting the named session, or a new one. */
  private async agentFor(channel: RequestChannel, target: LinkTarget): Promise<string> {
    const { flags } = this.options;
    if (target.resume !== undefined) {
      const { agents } = await shardCall(channel, { type: "agent.list" });
      if (agents.some((a) => a.agent_id === target.resume)) return target.resume;
    }
    const create: Omit<AgentCreateCommand, "id"> = {
      type: "agent.create",
      cwd: target.cwd,
      name: `acp: ${basename(target.cwd) || target.cwd}`,
      ...(target.resume !== undefined ? { session_id: target.resume } : {}),
      ...(flags.model !== undefined ? { model: flags.model } : {}),
      ...(flags.mode !== undefined ? { mode: flags.mode } : {}),
      ...(flags.sandbox !== undefined ? { sandbox: flags.sandbox } : {}),
      // The daemon keeps them with the agent: it has them after a daemon restart too.
      ...(target.mcpServers !== undefined && Object.keys(target.mcpServers).length > 0
        ? { mcp_servers: target.mcpServers }
        : {}),
    };
    const created = await shardCall(channel, create);
    return created.agent_id;
  }
}
