/**
 * The project half of a runtime's MCP set-up: the repository's `.mcp.json`, minus the servers
 * whose names the user's mcp.json already has (the user's own entry wins, with a warning),
 * waiting behind the trust question.
 */
import type { McpServerConfig } from "./mcp-config.ts";
import { loadProjectMcpConfig } from "./project-config.ts";
import { ProjectTrust } from "./project-trust.ts";
import { McpTrustStore, mcpTrustPath } from "./trust-store.ts";

export function openProjectServers(options: {
  cwd: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  userServers: readonly McpServerConfig[];
  onWarning: (message: string) => void;
}): { trust?: ProjectTrust; warnings: string[] } {
  const loaded = loadProjectMcpConfig(options.cwd, options.env);
  const warnings = [...loaded.warnings];
  const project = loaded.config;
  if (project === undefined) return { warnings };
  const userNames = new Set(options.userServers.map((s) => s.name));
  const servers = project.servers.filter((server) => {
    if (!userNames.has(server.name)) return true;
    warnings.push(
      `${project.file}: server "${server.name}" is also in your mcp.json; yours is used and the project's is ignored`,
    );
    return false;
  });
  if (servers.length === 0) return { warnings };
  const trust = new ProjectTrust({
    project: { ...project, servers },
    store: new McpTrustStore(mcpTrustPath(options.home)),
    onWarning: options.onWarning,
  });
  return { trust, warnings };
}
