/**
 * Deleting an agent as every client sees it (`agent.delete`, an ephemeral agent whose creator
 * left, a create whose runtime refused its settings): the registry removes it, the broker
 * forgets it, and every client hears `agent_deleted`.
 */
import type { Failure } from "../../wire/errors.ts";
import type { BrokerContext } from "./broker-context.ts";

export async function removeAgent(
  ctx: BrokerContext,
  agentId: string,
  options: { session?: boolean } = {},
): Promise<{ ok: true } | Failure> {
  const deleted = await ctx.registry.delete(agentId, options);
  if (!deleted.ok) return deleted;
  ctx.forget(agentId);
  // Everyone hears it, the asker too, even if it went away while the runtime was stopping.
  ctx.broadcast({ type: "agent_deleted", agent_id: agentId });
  return deleted;
}
