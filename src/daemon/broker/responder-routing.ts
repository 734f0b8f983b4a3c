/**
 * Hierarchical routing of permission and UI requests (PROTOCOL §6.3, ARCHITECTURE §6.3): a
 * child agent with no interactive attachment of its own asks the nearest ancestor that has one,
 * keeping the child's `agent_id`. Observers never count as responders.
 */
import type { AgentChannel } from "./agent-channel.ts";

export interface Hierarchy {
  parentOf(agentId: string): string | undefined;
  channelOf(agentId: string): AgentChannel | undefined;
  agentIds(): Iterable<string>;
}

/** The agent's own channel, or its nearest ancestor's, with an interactive attachment. */
export function responderChannel(hierarchy: Hierarchy, agentId: string): AgentChannel | undefined {
  const seen = new Set<string>();
  for (let id: string | undefined = agentId; id !== undefined && !seen.has(id); id = hierarchy.parentOf(id)) {
    seen.add(id);
    const channel = hierarchy.channelOf(id);
    if (channel?.hasInteractive()) return channel;
  }
  return undefined;
}

/** `agentId` and every descendant, whose requests may route through it. */
export function selfAndDescendants(hierarchy: Hierarchy, agentId: string): string[] {
  const out: string[] = [];
  for (const id of hierarchy.agentIds()) {
    const seen = new Set<string>();
    for (let at: string | undefined = id; at !== undefined && !seen.has(at); at = hierarchy.parentOf(at)) {
      seen.add(at);
      if (at === agentId) {
        out.push(id);
        break;
      }
    }
  }
  return out;
}
