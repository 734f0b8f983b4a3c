/**
 * Creates a durable agent and announces it (`agent_spawned`) whether or not its first runtime
 * started: the identity is kept, and attach or a prompt retries the start.
 */
import type { Failure } from "../../wire/errors.ts";
import type { CreateParams } from "../registry/agent-creation.ts";
import type { RuntimeReady, StartFailure } from "../registry/runtime-process.ts";
import type { BrokerContext } from "./broker-context.ts";

export async function spawnAgent(
  ctx: BrokerContext,
  params: CreateParams,
): Promise<{ ok: true; agent_id: string; started: RuntimeReady | StartFailure } | Failure> {
  const created = await ctx.registry.create(params);
  if (!created.ok) return created;
  const info = ctx.agentInfo(created.agent_id);
  if (info) ctx.broadcast({ type: "agent_spawned", agent_id: created.agent_id, info });
  return created;
}
