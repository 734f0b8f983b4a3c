/** A daemon test's turn that stops at a bash permission request: the mock model asks to run `command`. */
import { expect } from "bun:test";
import type { MockLlmServer } from "../../support/mock-llm/types.ts";
import type { DaemonClient, Msg } from "./daemon-client.ts";

export async function askBash(
  llm: MockLlmServer,
  client: DaemonClient,
  agentId: string,
  command = "echo hi",
): Promise<Msg> {
  llm.enqueue({ steps: [{ tool_call: { name: "bash", args: { command } } }] }, { steps: [{ text: "done" }] });
  const from = client.messages.length;
  const res = await client.request({ type: "prompt", agent_id: agentId, message: "run it" });
  expect(res.success).toBe(true);
  return client.waitAgent(agentId, "permission_request", from);
}
