/**
 * The transport to one server. A stdio server is a command the agent starts, so it runs in the
 * agent's sandbox (wrapped like `bash`, with the same secret-free environment plus the entry's
 * own `env`) unless its entry says `"sandbox": "off"`. A Streamable HTTP server is reached from
 * the runtime, with the entry's headers.
 */
import type { Transport } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { CommandSandbox } from "../sandbox/agent-sandbox.ts";
import { confinedEnv } from "../sandbox/confined-env.ts";
import type { SandboxMode } from "../types/sandbox.ts";
import { isStdioServer, type McpServerConfig } from "./mcp-config.ts";

export interface TransportContext {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  sandbox?: CommandSandbox;
}

export interface OpenedTransport {
  transport: Transport;
  /** Stdio: the sandbox mode the server runs in (`off`: unconfined). */
  sandbox?: SandboxMode;
  /** The end of what the server wrote to stderr, for a failure's message. */
  stderrTail(): string;
}

const STDERR_TAIL_CHARS = 500;

export function openTransport(server: McpServerConfig, ctx: TransportContext): OpenedTransport {
  if (!isStdioServer(server)) {
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: server.headers },
    });
    return { transport, stderrTail: () => "" };
  }
  const argv = [server.command, ...(server.args ?? [])];
  const wrapped = server.sandbox === "off" ? undefined : ctx.sandbox?.wrap(argv);
  const [command = server.command, ...args] = wrapped?.argv ?? argv;
  const transport = new StdioClientTransport({
    command,
    args,
    env: { ...(wrapped?.env ?? confinedEnv(ctx.env)), ...server.env },
    cwd: ctx.cwd,
    stderr: "pipe",
  });
  let tail = "";
  transport.stderr?.on("data", (chunk: Buffer | string) => {
    tail = (tail + chunk.toString()).slice(-STDERR_TAIL_CHARS);
  });
  return {
    transport,
    sandbox: wrapped === undefined ? "off" : (ctx.sandbox?.mode() ?? "off"),
    stderrTail: () => tail,
  };
}
