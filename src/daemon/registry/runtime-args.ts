/**
 * The `shard agent` arguments of a generation. The first one creates the session with the
 * manifest's model and mode; later ones resume it, so a `set_model`/`set_mode` the session
 * recorded wins over the creation-time choice. The sandbox mode likewise: the session records it
 * (and any `set_sandbox`), so a resume must not pass it again; its policy and hosts are not
 * recorded there and go to every generation. The budget too: the session records it and `set_budget`.
 */
import type { AgentManifest } from "./manifest.ts";

export function runtimeArgs(manifest: AgentManifest, mcpConfigFile?: string): string[] {
  const args = ["agent", "--cwd", manifest.cwd];
  if (manifest.session_id !== undefined) {
    args.push("--session", manifest.session_id);
  } else {
    if (manifest.model !== undefined) args.push("--model", manifest.model);
    if (manifest.mode !== undefined) args.push("--mode", manifest.mode);
    if (manifest.sandbox !== undefined) args.push("--sandbox", manifest.sandbox);
    if (manifest.budget_usd !== undefined) args.push("--budget-usd", String(manifest.budget_usd));
  }
  if (manifest.tools !== undefined) args.push("--tools", manifest.tools.join(","));
  if (manifest.sandbox_policy !== undefined) args.push("--sandbox-policy", manifest.sandbox_policy);
  for (const host of manifest.network_allow ?? []) args.push("--allow-host", host);
  // The broker answers its reads: from the client that serves them, or at once `{error}` and
  // the disk is read (src/daemon/broker/client-read-routing.ts). Local runtimes only: an editor
  // here holds buffers of this machine's files, not of a placement's.
  if (manifest.placement === undefined) args.push("--client-reads");
  // The agent's own MCP servers (agent-mcp-config.ts), beside $SHARD_HOME/mcp.json's.
  if (mcpConfigFile !== undefined) args.push("--mcp-config", mcpConfigFile);
  return args;
}
