/**
 * An MCP server entry in mcp.json's shape (docs/mcp.md): a stdio command or a Streamable HTTP
 * URL. `$SHARD_HOME/mcp.json`, a project's `.mcp.json`, `shard agent --mcp-config` and
 * `agent.create`'s `mcp_servers` (protocol-additions §25) all use it.
 */
import { type Static, Type } from "@sinclair/typebox";

const StringMap = Type.Record(Type.String(), Type.String());

export const McpStdioServerSchema = Type.Object(
  {
    type: Type.Optional(Type.Literal("stdio")),
    command: Type.String({ minLength: 1 }),
    args: Type.Optional(Type.Array(Type.String())),
    /** Values may name `${VAR}`s of the runtime's environment. */
    env: Type.Optional(StringMap),
    /** `off`: the server runs outside the agent's sandbox (docs/mcp.md). */
    sandbox: Type.Optional(Type.Literal("off")),
  },
  { $id: "McpStdioServer" },
);
export type McpStdioServer = Static<typeof McpStdioServerSchema>;

export const McpHttpServerSchema = Type.Object(
  {
    type: Type.Optional(Type.Union([Type.Literal("http"), Type.Literal("streamable-http")])),
    url: Type.String({ minLength: 1 }),
    /** Values may name `${VAR}`s of the runtime's environment. */
    headers: Type.Optional(StringMap),
  },
  { $id: "McpHttpServer" },
);
export type McpHttpServer = Static<typeof McpHttpServerSchema>;

/** At most this many servers in one `agent.create` (an editor configures a handful). */
export const MAX_MCP_SERVERS = 64;

/** mcp.json's `mcpServers` object: server name → entry. */
export const McpServersSchema = Type.Record(
  Type.String(),
  Type.Union([McpStdioServerSchema, McpHttpServerSchema]),
  { $id: "McpServers", maxProperties: MAX_MCP_SERVERS },
);
export type McpServers = Static<typeof McpServersSchema>;
