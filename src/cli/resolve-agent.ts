/** How the CLI's commands that take `<agent>` (attach, rm) find it in the daemon's list. */
import type { AgentInfo } from "../types/agent-info.ts";

/** Exact id, then exact name, then a unique id prefix; otherwise a message that says why. */
export function resolveAgent(agents: AgentInfo[], target: string): AgentInfo | string {
  const exact = agents.find((a) => a.agent_id === target);
  if (exact !== undefined) return exact;
  const named = agents.filter((a) => a.name === target || a.display_name === target);
  if (named.length === 1 && named[0] !== undefined) return named[0];
  const prefixed = agents.filter((a) => a.agent_id.startsWith(target));
  if (prefixed.length === 1 && prefixed[0] !== undefined) return prefixed[0];
  if (named.length + prefixed.length > 1)
    return `"${target}" matches several agents; use the full id (shard ls)`;
  return `no agent "${target}" on this daemon (shard ls lists them)`;
}
