/**
 * `shard acp`: Shard as an Agent Client Protocol agent on stdio, for editors (Zed, JetBrains,
 * Neovim). Direct mode runs one `shard agent` per session; `--daemon` makes each session a
 * durable agent of the running daemon, seen and answerable from the web too. docs/acp.md.
 */

import * as acp from "@agentclientprotocol/sdk";
import { Value } from "@sinclair/typebox/value";
import pkg from "../../package.json" with { type: "json" };
import { acpAgent } from "../acp/acp-agent.ts";
import { DaemonBackend } from "../acp/daemon-link.ts";
import { RuntimeBackend } from "../acp/runtime-link.ts";
import type { AgentFlags, ShardBackend } from "../acp/shard-link.ts";
import { defaultShardCommand } from "../daemon/registry/shard-command.ts";
import { shardHome } from "../support/shard-home.ts";
import { SandboxModeSchema } from "../types/sandbox.ts";
import { parseFlags, reportUsageError, UsageError } from "./flags.ts";

export const ACP_HELP = `Usage: shard acp [--daemon] [options]

Speaks the Agent Client Protocol (ACP v1) on stdin/stdout, so an editor (Zed, JetBrains,
Neovim) can use Shard as its agent. Configure your editor to run \`shard acp\` (docs/acp.md).

Each ACP session is one Shard agent. Without --daemon it is a \`shard agent\` process that ends
with the session; with --daemon it is a durable agent of the running daemon: the web control
room shows it and can answer its permission requests (first answer wins), and it stays when
the editor closes.

Options:
  --daemon                  sessions are durable agents of the running daemon ($SHARD_HOME)
  --model PROVIDER/MODEL    the model of new sessions
  --mode NAME               build (default), plan, or a mode from .shard/modes/
  --sandbox MODE            workspace-write (default), read-only or off (docs/sandbox.md)
`;

const OPTIONS = {
  daemon: { type: "boolean" },
  model: { type: "string" },
  mode: { type: "string" },
  sandbox: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export async function acpCommand(argv: string[]): Promise<number> {
  const flags: AgentFlags = {};
  let daemon = false;
  try {
    const { values } = parseFlags(argv, OPTIONS, false);
    if (values.help) {
      process.stdout.write(ACP_HELP);
      return 0;
    }
    if (values.sandbox !== undefined && !Value.Check(SandboxModeSchema, values.sandbox))
      throw new UsageError(
        `--sandbox: "${values.sandbox}" is not a mode; use workspace-write, read-only or off`,
      );
    if (values.model !== undefined) flags.model = values.model;
    if (values.mode !== undefined) flags.mode = values.mode;
    if (values.sandbox !== undefined) flags.sandbox = values.sandbox;
    daemon = values.daemon === true;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return reportUsageError("acp", err.message);
  }
  const backend: ShardBackend = daemon
    ? new DaemonBackend({ home: shardHome(process.env), flags })
    : new RuntimeBackend({ shardCommand: defaultShardCommand(), flags, env: process.env });
  const app = acpAgent({
    backend,
    version: pkg.version,
    // The editor's MCP servers reach a direct runtime (`shard agent --mcp-config`) or a new
    // daemon agent (`agent.create`'s `mcp_servers`); stdio is always offered, SSE never.
    mcpCapabilities: { http: true, sse: false },
  });
  const connection = app.connect(acp.ndJsonStream(stdoutStream(), Bun.stdin.stream()));
  await connection.closed;
  return 0;
}

/** Our stdout as the writable side of the ACP stream: nothing else may write to it. */
function stdoutStream(): WritableStream<Uint8Array> {
  return new WritableStream<Uint8Array>({
    write: (chunk) =>
      new Promise<void>((resolve, reject) => {
        process.stdout.write(chunk, (err) => (err ? reject(err) : resolve()));
      }),
  });
}
