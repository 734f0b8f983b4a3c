/**
 * `shard mcp list` and `shard mcp test <name>`: the user's MCP servers ($SHARD_HOME/mcp.json,
 * docs/mcp.md) and whether one starts. `test` starts it through the runtime's own connection
 * code, with the configured timeouts and, for a stdio server, in the sandbox an agent would give
 * it here. Env and header values are secrets: never printed (names only), and a failure's
 * message is scrubbed of them like the runtime's events.
 */
import pkg from "../../package.json" with { type: "json" };
import { isStdioServer, loadMcpConfig, type McpServerConfig, mcpConfigPath } from "../mcp/mcp-config.ts";
import { loadMcpTimeouts } from "../mcp/mcp-timeouts.ts";
import { redactor } from "../mcp/redact.ts";
import { AgentSandbox } from "../sandbox/agent-sandbox.ts";
import { resolveSandboxSettings } from "../sandbox/sandbox-settings.ts";
import { describeError } from "../support/describe-error.ts";
import { shardHome } from "../support/shard-home.ts";
import { terminalLine } from "../terminal/terminal-text.ts";
import { parseFlags, reportUsageError, UsageError } from "./flags.ts";

export const MCP_HELP = `Usage: shard mcp list [--json]
       shard mcp test <name> [--cwd <dir>] [--json]

The MCP servers of $SHARD_HOME/mcp.json (docs/mcp.md).

  list          each server: name, transport (stdio command or URL), the names of its env
                variables or headers (never their values), and the file's problems
  test <name>   start that server as an agent would (the same timeouts; a stdio server in the
                sandbox of an agent in --cwd, default the current directory), list its tools,
                stop it. Exit 0 when it starts, 1 when it does not
  --json        print JSON instead
`;

const OPTIONS = {
  json: { type: "boolean" },
  cwd: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

interface ServerLine {
  name: string;
  transport: "stdio" | "http";
  command?: string;
  args?: string[];
  env?: string[];
  sandbox?: "off";
  url?: string;
  headers?: string[];
}

export async function mcpCommand(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseFlags<typeof OPTIONS>>;
  try {
    parsed = parseFlags(argv, OPTIONS, true);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return reportUsageError("mcp", err.message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(MCP_HELP);
    return 0;
  }
  const [sub, name, ...extra] = positionals;
  const json = values.json === true;
  if (sub === "list" && name === undefined) return list(json);
  if (sub === "test" && name !== undefined && extra.length === 0)
    return test(name, values.cwd ?? process.cwd(), json);
  if (sub === "test") return reportUsageError("mcp", "test needs exactly one server name");
  if (sub === undefined) return reportUsageError("mcp", "missing subcommand: list or test");
  return reportUsageError(
    "mcp",
    `unknown subcommand "${sub}"${name !== undefined ? " (or extra arguments)" : ""}: list or test`,
  );
}

function list(json: boolean): number {
  const home = shardHome(process.env);
  const config = loadMcpConfig(home, process.env);
  const problems = [...config.warnings, ...loadMcpTimeouts(home).warnings];
  const servers = config.servers.map(describeServer);
  if (json) {
    process.stdout.write(`${JSON.stringify({ config: mcpConfigPath(home), servers, problems })}\n`);
    return 0;
  }
  if (servers.length === 0 && problems.length === 0)
    process.stdout.write(`no MCP servers: ${terminalLine(mcpConfigPath(home))} has none\n`);
  for (const s of servers) process.stdout.write(`${terminalLine(formatServer(s))}\n`);
  for (const p of problems) process.stdout.write(`problem: ${terminalLine(p)}\n`);
  return 0;
}

/** What the entry runs or reaches; args that repeat a secret value are scrubbed. */
function describeServer(server: McpServerConfig): ServerLine {
  if (!isStdioServer(server)) {
    const line: ServerLine = { name: server.name, transport: "http", url: server.url };
    const headers = Object.keys(server.headers);
    if (headers.length > 0) line.headers = headers;
    return line;
  }
  const redact = redactor(server.secrets);
  const line: ServerLine = { name: server.name, transport: "stdio", command: server.command };
  if (server.args?.length) line.args = server.args.map(redact);
  const env = Object.keys(server.env);
  if (env.length > 0) line.env = env;
  if (server.sandbox === "off") line.sandbox = "off";
  return line;
}

function formatServer(s: ServerLine): string {
  if (s.transport === "http")
    return `${s.name}  http  ${s.url ?? ""}${s.headers ? `  headers: ${s.headers.join(", ")}` : ""}`;
  const argv = [s.command ?? "", ...(s.args ?? [])].join(" ");
  const env = s.env ? `  env: ${s.env.join(", ")}` : "";
  return `${s.name}  stdio  ${argv}${env}${s.sandbox === "off" ? "  (sandbox off)" : ""}`;
}

async function test(name: string, cwd: string, json: boolean): Promise<number> {
  const home = shardHome(process.env);
  const config = loadMcpConfig(home, process.env);
  const server = config.servers.find((s) => s.name === name);
  if (server === undefined) {
    const names = config.servers.map((s) => s.name);
    const known =
      names.length > 0 ? `configured: ${names.join(", ")}` : `none is configured in ${mcpConfigPath(home)}`;
    return reportUsageError("mcp", `no MCP server "${name}" (${known})`);
  }
  const settings = resolveSandboxSettings({}, process.env, home);
  const opened = AgentSandbox.open({ settings, cwd, home, env: process.env });
  if (!opened.ok) return failed(json, name, opened.error.message);
  const sandbox = opened.sandbox;
  const errors: string[] = [];
  const { McpConnection } = await import("../mcp/mcp-connection.ts");
  const connection = new McpConnection({
    server,
    context: { cwd, env: process.env, sandbox },
    timeouts: loadMcpTimeouts(home).timeouts,
    clientVersion: pkg.version,
    onError: (message) => errors.push(message),
  });
  try {
    await connection.prepare();
    const status = connection.status();
    if (status?.state !== "ready") return failed(json, name, errors[0] ?? status?.error ?? "did not start");
    const tools = connection.tools().map((t) => ({
      name: t.mcp?.tool ?? t.name,
      description: (t.description.split("\n")[0] ?? "").trim(),
    }));
    const mode = isStdioServer(server) && server.sandbox !== "off" ? sandbox.mode() : "off";
    if (json) {
      const transport = isStdioServer(server) ? { transport: "stdio", sandbox: mode } : { transport: "http" };
      process.stdout.write(
        `${JSON.stringify({ name, state: "ready", ...transport, tools, warnings: errors })}\n`,
      );
      return 0;
    }
    const where = isStdioServer(server) ? ` (stdio, sandbox ${mode})` : " (http)";
    process.stdout.write(
      `${terminalLine(name)}: ready${where}, ${tools.length} tool${tools.length === 1 ? "" : "s"}\n`,
    );
    for (const t of tools)
      process.stdout.write(`  ${terminalLine(t.name)}  ${terminalLine(t.description)}\n`);
    for (const e of errors) process.stderr.write(`shard mcp test: ${terminalLine(e)}\n`);
    return 0;
  } catch (err) {
    return failed(json, name, describeError(err));
  } finally {
    await connection.close();
    sandbox.close();
  }
}

function failed(json: boolean, name: string, message: string): number {
  if (json) process.stdout.write(`${JSON.stringify({ name, state: "failed", error: message })}\n`);
  process.stderr.write(`shard mcp test: ${terminalLine(message)}\n`);
  return 1;
}
