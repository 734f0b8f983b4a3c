/**
 * Direct mode: each ACP session is its own `shard agent` child (the same runtime `shard agent`
 * runs), driven over stdio with the shared request channel. The ACP session id is the Shard
 * session id, so `session/load` resumes it with `--session`.
 */
import { RequestChannel } from "../client/request-channel.ts";
import type { SyncEvent } from "../types/agent-events.ts";
import { failure } from "../wire/errors.ts";
import { asAgentEvent, asResponse } from "../wire/validate.ts";
import { writeMcpServersFile } from "./mcp-servers-file.ts";
import { type RuntimeProcess, runtimeConnect } from "./runtime-connect.ts";
import type { AgentFlags, LinkEvents, LinkTarget, OpenedLink, ShardBackend } from "./shard-link.ts";

/** How long a new runtime may take to send its `sync`. */
const START_TIMEOUT_MS = 30_000;

export interface RuntimeBackendOptions {
  /** What runs `shard` (the daemon's rule: this bun on the sources, or the compiled binary). */
  shardCommand: string[];
  flags: AgentFlags;
  env: Record<string, string | undefined>;
}

export class RuntimeBackend implements ShardBackend {
  readonly kind = "direct";

  constructor(private readonly options: RuntimeBackendOptions) {}

  async open(target: LinkTarget, events: LinkEvents): Promise<OpenedLink> {
    const { flags } = this.options;
    const argv = [...this.options.shardCommand, "agent", "--cwd", target.cwd];
    // A resumed session keeps its own model and mode unless the flags say otherwise.
    if (flags.model !== undefined) argv.push("--model", flags.model);
    if (flags.mode !== undefined) argv.push("--mode", flags.mode);
    if (flags.sandbox !== undefined) argv.push("--sandbox", flags.sandbox);
    if (target.resume !== undefined) argv.push("--session", target.resume);
    if (target.clientReads === true) argv.push("--client-reads");
    const mcp = writeMcpServersFile(target.mcpServers ?? {});
    if (mcp !== undefined) argv.push("--mcp-config", mcp.path);
    try {
      return await this.start(argv, events);
    } finally {
      // The runtime read it at its start (or never will).
      mcp?.remove();
    }
  }

  private async start(argv: string[], events: LinkEvents): Promise<OpenedLink> {
    let runtime: RuntimeProcess | undefined;
    let synced!: (sync: SyncEvent) => void;
    let lost!: (reason: string) => void;
    const first = new Promise<SyncEvent | string>((resolve) => {
      synced = resolve;
      lost = resolve;
    });
    let lastError = "";
    const channel = new RequestChannel(
      {
        connect: runtimeConnect(argv, this.options.env, (p) => {
          runtime = p;
        }),
        idPrefix: "acp-",
        readResponse: asResponse,
        waitForHello: true,
        // Prompts answer at once; nothing else waits on the model.
        timeoutMs: 60_000,
      },
      {
        message: (value) => {
          const event = asAgentEvent(value);
          if (event === undefined) return;
          if (event.type === "sync") synced(event);
          if (event.type === "error" && event.fatal === true) lastError = event.message;
          events.event(event);
        },
        state: (state) => {
          if (state.kind !== "closed") return;
          lost(lastError || state.error.message);
          events.closed(state.error.message);
        },
      },
    );
    const opened = await channel.open();
    // A runtime that refuses its settings says why in a fatal `error` before it exits.
    if (!opened.ok) return lastError ? failure("RUNTIME_START_FAILED", lastError) : opened;
    const timer = setTimeout(
      () => lost(`the agent sent no sync within ${START_TIMEOUT_MS} ms`),
      START_TIMEOUT_MS,
    );
    const got = await first;
    clearTimeout(timer);
    if (typeof got === "string") {
      channel.close(got);
      return failure("RUNTIME_START_FAILED", got);
    }
    return {
      ok: true,
      sync: got,
      link: {
        agentId: undefined,
        request: (command) => channel.request(command),
        resync: () => undefined,
        close: async () => {
          channel.close("the editor closed the session");
          await runtime?.exited;
        },
      },
    };
  }
}
