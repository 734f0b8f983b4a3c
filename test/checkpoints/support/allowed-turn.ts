/** One prompt of a checkpoint test, run to its end with every permission it asks for allowed. */
import { expect } from "bun:test";
import type { AgentProcess, Msg } from "../../agent/support/agent-process.ts";

/** Runs one prompt to its end, allowing every permission the turn asks for; returns its events. */
export async function allowedTurn(agent: AgentProcess, message: string): Promise<Msg[]> {
  const from = agent.events.length;
  const res = await agent.request({ type: "prompt", message });
  expect(res.success).toBe(true);
  let at = from;
  for (;;) {
    const next = await agent.waitFor((e) => e.type === "permission_request" || e.type === "turn_end", at);
    at = agent.events.indexOf(next) + 1;
    if (next.type === "turn_end") break;
    agent.send({ type: "permission_response", request_id: next.request_id, choice_id: "allow_once" });
  }
  await agent.waitStatus("idle", from);
  return agent.events.slice(from);
}
