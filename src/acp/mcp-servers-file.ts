/**
 * The editor's MCP servers (`session/new`'s `mcpServers`) in mcp.json's shape: for a direct
 * runtime, written to a file only this user can read (their env and headers may hold tokens),
 * passed as `shard agent --mcp-config`, and removed once the runtime has read it (at start);
 * for a daemon agent, sent as `agent.create`'s `mcp_servers` (the daemon keeps them).
 * Names are made to fit Shard's server-name rule; SSE servers are not offered (mcpCapabilities).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { RequestError } from "@agentclientprotocol/sdk";
import { MAX_MCP_SERVERS, type McpServers } from "../types/mcp-server-config.ts";

const NAME_MAX = 32;

export interface McpServersFile {
  path: string;
  remove(): void;
}

export function mcpServersConfig(servers: readonly acp.McpServer[]): McpServers {
  if (servers.length > MAX_MCP_SERVERS)
    throw RequestError.invalidParams(undefined, `at most ${MAX_MCP_SERVERS} MCP servers per session`);
  const entries: McpServers = {};
  for (const server of servers) {
    const name = uniqueName(serverName(server.name), entries);
    if ("command" in server) {
      entries[name] = {
        command: server.command,
        args: server.args,
        env: Object.fromEntries(server.env.map((v) => [v.name, v.value])),
      };
    } else if (server.type === "http") {
      entries[name] = {
        url: server.url,
        headers: Object.fromEntries(server.headers.map((h) => [h.name, h.value])),
      };
    } else {
      throw RequestError.invalidParams(
        undefined,
        `MCP server "${server.name}": SSE servers are not supported`,
      );
    }
  }
  return entries;
}

export function writeMcpServersFile(servers: McpServers): McpServersFile | undefined {
  if (Object.keys(servers).length === 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "shard-acp-mcp-"));
  const path = join(dir, "mcp.json");
  writeFileSync(path, JSON.stringify({ mcpServers: servers }), { mode: 0o600 });
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Letters, digits, `-` and single `_`, at most 32: what `mcp__<server>__<tool>` needs. */
function serverName(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9_-]+/g, "-")
    .replace(/_{2,}/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, NAME_MAX);
  return cleaned === "" ? "server" : cleaned;
}

function uniqueName(name: string, taken: McpServers): string {
  if (!(name in taken)) return name;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${name.slice(0, NAME_MAX - suffix.length)}${suffix}`;
    if (!(candidate in taken)) return candidate;
  }
}
