/**
 * An agent's own MCP servers (`agent.create`'s `mcp_servers`, kept in its manifest) as the file
 * its runtime reads with `--mcp-config`: `agents/<agent_id>/mcp-servers.json`, owner-only (env
 * and headers may hold tokens), written atomically before each generation starts, so every
 * generation, after a daemon restart too, gets the same servers. Deleting the agent removes its
 * folder, and the file with it.
 */
import { join } from "node:path";
import { atomicWriteFileSync } from "../../support/atomic-write.ts";
import type { AgentManifest } from "./manifest.ts";

export function agentMcpConfigPath(home: string, agentId: string): string {
  return join(home, "agents", agentId, "mcp-servers.json");
}

/** The file's path, or undefined for an agent without servers of its own. Throws when it cannot be written. */
export function writeAgentMcpConfig(home: string, manifest: AgentManifest): string | undefined {
  if (manifest.mcp_servers === undefined) return undefined;
  const path = agentMcpConfigPath(home, manifest.agent_id);
  atomicWriteFileSync(path, `${JSON.stringify({ mcpServers: manifest.mcp_servers }, null, 2)}\n`, 0o600);
  return path;
}
