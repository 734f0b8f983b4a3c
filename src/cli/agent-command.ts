/** `shard agent`: one headless agent speaking the per-agent protocol as JSONL on stdio. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Value } from "@sinclair/typebox/value";
import pkg from "../../package.json" with { type: "json" };
import { type CreateRuntimeFailure, createRuntime, type RuntimeConfig } from "../agent/create-runtime.ts";
import { createStdioConnection, serveStdio } from "../agent/protocol/stdio-connection.ts";
import { claimOwnerTag, OWNER_TAG } from "../placements/owner-tag.ts";
import {
  discoverLocalServer,
  discoverOpenAiModel,
  localServers,
  nothingConfigured,
  wantsModelDiscovery,
} from "../providers/discover-model.ts";
import { loadModelsFile } from "../providers/models-file.ts";
import { isValidHost, type SandboxRequest } from "../sandbox/sandbox-settings.ts";
import { describeError } from "../support/describe-error.ts";
import { shardHome } from "../support/shard-home.ts";
import { startTelemetry, stopTelemetry } from "../telemetry/telemetry.ts";
import { terminalLine } from "../terminal/terminal-text.ts";
import { SandboxModeSchema, SandboxPolicySchema } from "../types/sandbox.ts";
import { encodeJsonLine } from "../wire/jsonl-encoder.ts";
import { BatchedWriter } from "./batched-writer.ts";
import { AGENT_FLAG_OPTIONS, budgetFrom, parseFlags, reportUsageError, UsageError } from "./flags.ts";

export const AGENT_HELP = `Usage: shard agent [options]

Runs one coding agent that speaks the Shard per-agent protocol (JSONL, one message per
line) on stdin/stdout. It sends hello and sync first, then streams events; it exits on stdin EOF.

Options:
  --cwd DIR                     working directory (default: current directory)
  --model PROVIDER/MODEL        e.g. anthropic/claude-sonnet-5-5, openai/gpt-4.1, local/qwen3:8b
  --mode NAME                   build (default), plan, or a mode from .shard/modes/
  --session ID|PATH             resume a session (id under $SHARD_HOME/sessions, or a .jsonl path)
  --tools a,b,c                 only these tools (read,write,edit,bash,grep,find,ls,ask,recall)
  --system-prompt-file FILE     replace the built-in base prompt
  --sandbox MODE                workspace-write (default), read-only or off (docs/sandbox.md)
  --sandbox-policy POLICY       auto-allow-sandboxed (default): a confined bash call runs without
                                asking; ask: every bash call asks
  --allow-host HOST             a host the sandboxed commands may reach through the proxy
                                (repeat it; *.example.com for subdomains)
  --mcp-config FILE             more MCP servers, in mcp.json's shape, beside $SHARD_HOME/mcp.json
                                (read once at start; \`shard acp\` passes the editor's servers so)
  --budget-usd AMOUNT           stop at the provider boundary once the agent has spent this many
                                US dollars; raise it with set_budget (docs/usage.md)
  --owner-tag TAG               set by a daemon that runs this agent on a placement: a runtime
                                still live under the same tag is an orphan and is killed first
                                (docs/placements.md)
  --client-reads                the client serves file reads (client_read_request): \`read\` asks it
                                first for files inside --cwd, so an editor's unsaved buffers are seen
  --daemon-link stdio           set by a daemon that runs this agent where no socket reaches it
  --agent-id ID                 (a command or container placement): the \`subagent\` tool asks the
                                daemon over stdio (daemon_request), as agent ID (docs/placements.md)
`;

export interface CommonFlags {
  cwd?: string;
  model?: string;
  mode?: string;
  session?: string;
  tools?: string;
  "system-prompt-file"?: string;
  sandbox?: string;
  "sandbox-policy"?: string;
  "allow-host"?: string[];
  "mcp-config"?: string;
  "budget-usd"?: string;
}

/** Turns shared flags into a runtime config; throws UsageError on bad values. */
export function runtimeConfigFrom(
  flags: CommonFlags,
  env: Record<string, string | undefined>,
): RuntimeConfig {
  let basePrompt: string | undefined;
  if (flags["system-prompt-file"]) {
    try {
      basePrompt = readFileSync(flags["system-prompt-file"], "utf8");
    } catch (err) {
      throw new UsageError(`--system-prompt-file: ${describeError(err)}`);
    }
  }
  const tools = flags.tools
    ?.split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  const config: RuntimeConfig = { home: shardHome(env), env, serverVersion: pkg.version };
  if (flags.cwd) config.cwd = flags.cwd;
  if (flags.model) config.model = flags.model;
  if (flags.mode) config.mode = flags.mode;
  if (flags.session) config.session = flags.session;
  if (tools) config.tools = tools;
  if (basePrompt) config.basePrompt = basePrompt;
  if (flags["mcp-config"]) config.mcpConfigFile = flags["mcp-config"];
  config.sandbox = sandboxRequestFrom(flags);
  const budget = flags["budget-usd"];
  if (budget !== undefined) config.budgetUsd = budgetFrom(budget);
  const retryBase = env.SHARD_RETRY_BASE_MS ? Number(env.SHARD_RETRY_BASE_MS) : undefined;
  if (retryBase !== undefined && Number.isFinite(retryBase))
    config.providerOptions = { retryBaseMs: retryBase };
  return config;
}

function sandboxRequestFrom(flags: CommonFlags): SandboxRequest {
  const request: SandboxRequest = {};
  if (flags.sandbox !== undefined) {
    if (!Value.Check(SandboxModeSchema, flags.sandbox))
      throw new UsageError(
        `--sandbox: "${flags.sandbox}" is not a mode; use workspace-write, read-only or off`,
      );
    request.mode = flags.sandbox;
  }
  const policy = flags["sandbox-policy"];
  if (policy !== undefined) {
    if (!Value.Check(SandboxPolicySchema, policy))
      throw new UsageError(`--sandbox-policy: "${policy}" is not a policy; use auto-allow-sandboxed or ask`);
    request.policy = policy;
  }
  const hosts = flags["allow-host"] ?? [];
  const bad = hosts.find((host) => !isValidHost(host));
  if (bad !== undefined)
    throw new UsageError(`--allow-host: "${bad}" is not a host name (example.com or *.example.com)`);
  if (hosts.length > 0) request.networkAllow = hosts;
  return request;
}

/**
 * The usage-error message when a start-up failure lies in a value given on the command line
 * (`--mode nope`, `--cwd /missing`, ...); undefined when it lies elsewhere.
 */
export function usageErrorOf(failure: CreateRuntimeFailure, flags: CommonFlags): string | undefined {
  const setting = failure.rejected;
  if (setting === undefined || flags[setting] === undefined) return undefined;
  return `--${setting}: ${failure.error.message}`;
}

/**
 * With nothing naming a model and only an OpenAI-compatible base URL, ask that server which
 * models it has. With nothing configured at all, look for a local server on the usual ports
 * and point OPENAI_BASE_URL at it (a resumed session keeps its own model but still needs the
 * server). `say` tells the user what was picked.
 */
export async function discoverModelIfNeeded(
  config: RuntimeConfig,
  say: (line: string) => void = (line) => process.stderr.write(`shard: ${line}\n`),
): Promise<void> {
  if (nothingConfigured(config.env) && !config.model?.startsWith("anthropic/") && !hasCustomModels(config)) {
    const found = await discoverLocalServer(localServers(config.env));
    if (!found) return;
    config.env = { ...config.env, OPENAI_BASE_URL: found.baseUrl };
    const pick = !config.model && !config.session;
    if (pick) config.model = found.model;
    say(
      `no provider configured; found ${found.server.name} at ${found.baseUrl}` +
        (pick ? `, using ${found.model}` : "") +
        " (set SHARD_MODEL, OPENAI_BASE_URL or models.json to choose)",
    );
    return;
  }
  if (config.model || config.session || !wantsModelDiscovery(config.env)) return;
  const found = await discoverOpenAiModel(config.env);
  if (found) config.model = found;
}

function hasCustomModels(config: RuntimeConfig): boolean {
  return loadModelsFile(join(config.home, "models.json")).models.length > 0;
}

/** `--daemon-link stdio --agent-id ID`: both or neither; throws UsageError otherwise. */
function daemonLinkFrom(
  link: string | undefined,
  agentId: string | undefined,
): { agentId: string } | undefined {
  if (link === undefined && agentId === undefined) return undefined;
  if (link !== "stdio")
    throw new UsageError(
      link === undefined
        ? "--agent-id goes with --daemon-link stdio"
        : `--daemon-link: "${link}" is not a link; the one there is is stdio`,
    );
  if (agentId === undefined || !AGENT_ID.test(agentId))
    throw new UsageError("--daemon-link stdio needs --agent-id ID (1-100 letters, digits, _ or -)");
  return { agentId };
}

const AGENT_ID = /^[A-Za-z0-9_-]{1,100}$/;

export async function agentCommand(argv: string[]): Promise<number> {
  let config: RuntimeConfig;
  let flags: CommonFlags & { "owner-tag"?: string };
  try {
    const { values } = parseFlags(
      argv,
      {
        ...AGENT_FLAG_OPTIONS,
        "owner-tag": { type: "string" },
        "client-reads": { type: "boolean" },
        "daemon-link": { type: "string" },
        "agent-id": { type: "string" },
      },
      false,
    );
    if (values.help) {
      process.stdout.write(AGENT_HELP);
      return 0;
    }
    flags = values;
    config = runtimeConfigFrom(values, process.env);
    // Only a client on this runtime's stdio can answer (`shard acp`); `shard run` has none.
    if (values["client-reads"] === true) config.clientReads = true;
    const daemonLink = daemonLinkFrom(values["daemon-link"], values["agent-id"]);
    if (daemonLink !== undefined) config.daemonLink = daemonLink;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return reportUsageError("agent", err.message);
  }
  const ownerTag = flags["owner-tag"];
  if (ownerTag !== undefined && !OWNER_TAG.test(ownerTag))
    return reportUsageError("agent", "--owner-tag: use 1-80 letters, digits, _ or -");
  // Before the session opens: an orphan under the same tag holds its lock.
  const claim = ownerTag === undefined ? undefined : claimOwnerTag(config.home, ownerTag);
  if (claim?.swept !== undefined)
    process.stderr.write(`shard agent: killed orphaned runtime ${claim.swept} (owner tag ${ownerTag})\n`);
  try {
    return await serveAgent(config, flags);
  } finally {
    claim?.release();
  }
}

async function serveAgent(config: RuntimeConfig, flags: CommonFlags): Promise<number> {
  await discoverModelIfNeeded(config);
  // OpenTelemetry loads only when the OTEL_* variables ask for it (docs/telemetry.md).
  await startTelemetry(process.env, "agent", pkg.version, (message) =>
    process.stderr.write(`shard agent: warning: ${terminalLine(message)}\n`),
  );
  const out = new BatchedWriter((s) => process.stdout.write(s));
  // A client drives this runtime: a question the last one left open is asked again.
  const created = createRuntime({ ...config, askOpenPermissionsAgain: true });
  if (!created.ok) {
    // Still speak the protocol: a client reading stdout sees a fatal error event.
    out.write(encodeJsonLine({ type: "error", ...created.error, fatal: true }));
    await out.flush();
    const usage = usageErrorOf(created, flags);
    if (usage !== undefined) return reportUsageError("agent", usage);
    process.stderr.write(`shard agent: ${created.error.code}: ${terminalLine(created.error.message)}\n`);
    return 1;
  }
  const { runtime, warnings } = created.value;
  const connection = createStdioConnection(out);
  runtime.attach(connection);
  for (const warning of warnings) {
    process.stderr.write(`shard agent: warning: ${terminalLine(warning.message)}\n`);
    runtime.emit({ type: "error", code: warning.code, message: warning.message, fatal: false });
  }
  // A signal ends the agent like stdin EOF does: abort work (killing a running bash group),
  // tell the client the turn ended, release the session lock. The handlers stay installed
  // until that is done, so a second signal cannot kill the agent half-way
  // (docs/architecture.md §4).
  const stop = new AbortController();
  let stopCode = 0;
  const onStop = (code: number) => {
    if (stopCode === 0) stopCode = code;
    stop.abort();
  };
  const onSigterm = () => onStop(143);
  const onSigint = () => onStop(130);
  // A closed terminal must not orphan the bash group either.
  const onSighup = () => onStop(129);
  // The client stopped reading (EPIPE): nobody can see the agent any more, so stop like on EOF.
  const onStdoutError = () => onStop(143);
  process.on("SIGTERM", onSigterm);
  process.on("SIGINT", onSigint);
  process.on("SIGHUP", onSighup);
  process.stdout.on("error", onStdoutError);
  try {
    await serveStdio(runtime, Bun.stdin.stream(), connection, { stop: stop.signal });
    await out.flush();
    // exitCode, never process.exit() (docs/architecture.md §4): the last events must reach the
    // client.
    if (stop.signal.aborted) await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
  } finally {
    process.off("SIGTERM", onSigterm);
    process.off("SIGINT", onSigint);
    process.off("SIGHUP", onSighup);
    // The last spans and metrics; bounded, so a dead collector cannot hold the exit.
    await stopTelemetry();
  }
  return stopCode;
}
