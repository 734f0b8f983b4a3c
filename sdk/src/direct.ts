/**
 * The direct transport's entry: spawn one `shard agent` and drive it over stdio. The child
 * exits on stdin EOF (`agent.close()`), so a script that ends leaves no agent behind.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { DEFAULT_REQUEST_TIMEOUT_MS } from "../../src/client/request-channel.ts";
import { failure } from "../../src/wire/errors.ts";
import { Agent } from "./agent.ts";
import type { AgentLink, UnhandledRequests } from "./agent-link.ts";
import type { AgentOptions } from "./agent-options.ts";
import { Connection } from "./connection.ts";
import { ShardError } from "./errors.ts";
import { StdioTransport } from "./transports/stdio-transport.ts";

export interface SpawnAgentOptions extends AgentOptions {
  cwd?: string;
  /** `provider/model`, e.g. `anthropic/claude-sonnet-5-5`. */
  model?: string;
  mode?: string;
  /** Resume this session (id or .jsonl path). */
  session?: string;
  tools?: string[];
  /** `SHARD_HOME` of the agent (models.json, sessions, grants); default the environment's. */
  home?: string;
  /** Environment of the child (default: this process's). */
  env?: Record<string, string | undefined>;
  /** What runs `shard` (default: this checkout's sources, else the installed `@shard-dev/cli`, else `shard` on PATH). */
  command?: string[];
  /** Without a handler: `deny` answers requests at once (default), `leave` keeps them open. */
  unhandledRequests?: UnhandledRequests;
  requestTimeoutMs?: number;
  /** How long to wait for the agent's `hello` + `sync` (default 30 s). */
  startTimeoutMs?: number;
}

export async function spawnAgent(options: SpawnAgentOptions = {}): Promise<Agent> {
  const command = [...(options.command ?? defaultShardCommand()), "agent", ...agentArgs(options)];
  let agent: Agent | undefined;
  let ready!: () => void;
  let notReady!: (error: ShardError) => void;
  const started = new Promise<void>((resolve, reject) => {
    ready = resolve;
    notReady = reject;
  });
  // When the transport cannot start, `open()` throws first and nobody awaits `started`.
  started.catch(() => undefined);
  let transport: StdioTransport | undefined;
  const connection = new Connection(
    {
      connect: async (sink) => {
        try {
          transport = new StdioTransport(
            {
              command,
              env: childEnv(options),
            },
            sink,
          );
        } catch (err) {
          if (!(err instanceof ShardError)) throw err;
          return { ...failure(err.code, err.message), retry: false };
        }
        return { ok: true, transport };
      },
      reconnect: false,
      timeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    },
    {
      agentEvent: (event) => {
        agent?.receive(event);
        if (event.type === "sync") ready();
      },
      state: (state) => {
        if (state.kind !== "closed") return;
        const reason = state.error.message;
        notReady(
          new ShardError("RUNTIME_START_FAILED", `${reason}; check --model and SHARD_HOME/models.json`),
        );
        agent?.end({ code: "INTERNAL_ERROR", message: reason });
      },
    },
  );
  const link: AgentLink = {
    agentId: undefined,
    answers: true,
    unhandled: options.unhandledRequests ?? "deny",
    request: (command, requestOptions) => connection.request(command, requestOptions),
    send: (command) => connection.send(command),
    // One runtime writes the stream in order: there is nothing to miss and no one to ask.
    resync: () => undefined,
    close: async () => {
      connection.close("the agent was closed");
      await transport?.exited;
    },
  };
  agent = new Agent(link, options);
  await connection.open();
  const timeoutMs = options.startTimeoutMs ?? 30_000;
  const timer = setTimeout(
    () => notReady(new ShardError("TIMEOUT", `the agent sent no sync within ${timeoutMs} ms`)),
    timeoutMs,
  );
  try {
    await started;
  } catch (err) {
    transport?.kill();
    throw err;
  } finally {
    clearTimeout(timer);
  }
  return agent;
}

function agentArgs(o: SpawnAgentOptions): string[] {
  const args: string[] = [];
  if (o.cwd !== undefined) args.push("--cwd", o.cwd);
  if (o.model !== undefined) args.push("--model", o.model);
  if (o.mode !== undefined) args.push("--mode", o.mode);
  if (o.session !== undefined) args.push("--session", o.session);
  if (o.tools !== undefined) args.push("--tools", o.tools.join(","));
  return args;
}

function childEnv(o: SpawnAgentOptions): Record<string, string | undefined> {
  const env = { ...(o.env ?? process.env) };
  if (o.home !== undefined) env.SHARD_HOME = o.home;
  return env;
}

/** The package that holds the runtime; the published SDK depends on it. */
export const CLI_PACKAGE = "@shard-dev/cli";

/**
 * What runs the agent: in a checkout, its sources under the current Bun; else the installed
 * `@shard-dev/cli` (the SDK's dependency) under the current Bun; else `shard` on PATH. None of
 * them is a `ShardError` saying what to install, not Bun's bare "Executable not found".
 */
export function defaultShardCommand(): string[] {
  if (typeof Bun === "undefined") return ["shard"]; // the stdio transport says Bun is needed
  const checkout = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
  if (existsSync(checkout)) return [process.execPath, checkout];
  const installed = installedCliMain();
  if (installed !== undefined) return [process.execPath, installed];
  const onPath = Bun.which("shard");
  if (onPath !== null) return [onPath];
  throw new ShardError(
    "RUNTIME_START_FAILED",
    `the Shard runtime was not found: install it with \`bun add ${CLI_PACKAGE}\` (the SDK depends on it), ` +
      "put `shard` on PATH, or pass `command` to spawnAgent",
  );
}

function installedCliMain(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve(`${CLI_PACKAGE}/src/cli/main.ts`);
  } catch {
    return undefined;
  }
}
