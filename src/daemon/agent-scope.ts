/**
 * The narrow capability a runtime on another placement gets (docs/placements.md, subagents): a
 * connection scoped to one agent may send only `subagent.*` commands, and only as that agent's
 * parent. Whatever the far side sends, it cannot create, prompt or delete agents, answer
 * permissions, manage browsers, or act for another agent.
 */
import { type AnyCommand, COMMANDS } from "../types/command-table.ts";
import { type WireError, wireError } from "../wire/errors.ts";

/** Why a command from a connection scoped to `agentId` is refused; undefined when it may pass. */
export function scopeRefusal(command: AnyCommand, agentId: string): WireError | undefined {
  const owner = COMMANDS[command.type].owner;
  if (owner !== "subagents")
    return wireError(
      "PERMISSION_DENIED",
      `${command.type} is refused: this connection is agent ${agentId}'s subagent link, which carries subagent.* commands only`,
    );
  const parent = "parent_agent_id" in command ? command.parent_agent_id : undefined;
  if (parent !== agentId)
    return wireError(
      "PERMISSION_DENIED",
      `${command.type} is refused: this connection acts for agent ${agentId} only, not ${String(parent)}`,
    );
  return undefined;
}
