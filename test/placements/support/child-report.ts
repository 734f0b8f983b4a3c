/**
 * What every placement's subagent test checks the same way: the agent's model launches one child
 * with its `subagent` tool (the client allows it), the child's report comes back into the
 * parent's conversation, and the child is listed under the parent. Markers are built from `tag`,
 * so the mock model's scripted steps of one test never answer another's.
 */
import { expect } from "bun:test";
import type { DaemonClient, Msg } from "../../daemon/support/daemon-client.ts";
import type { MockLlmServer } from "../../support/mock-llm/types.ts";

/** The child's `agent.list` entry, once the parent has its report saying `childSays`. */
export async function childReportedToParent(
  llm: MockLlmServer,
  client: DaemonClient,
  agentId: string,
  tag: string,
  childSays: string,
): Promise<Msg> {
  const fanOut = `${tag}-FAN-OUT`;
  const childTask = `TASK-${tag}-CHILD`;
  llm.enqueue(
    {
      when: fanOut,
      steps: [
        {
          tool_call: {
            name: "subagent",
            args: {
              action: "create",
              tasks: [{ name: `${tag.toLowerCase()}-child`, task: `${childTask} count` }],
            },
          },
        },
      ],
    },
    { when: fanOut, steps: [{ text: "dispatched" }] },
    { when: childTask, steps: [{ text: childSays }] },
  );
  const from = client.messages.length;
  await client.ok({ type: "prompt", agent_id: agentId, message: fanOut });
  const ask = await client.waitAgent(agentId, "permission_request", from);
  expect(ask.tool_name).toBe("subagent");
  await client.ok({
    type: "permission_response",
    agent_id: agentId,
    request_id: ask.request_id,
    decision: "allow",
  });
  const result = await client.waitFor(
    (m) => m.type === "tool_result" && m.agent_id === agentId,
    from,
    100_000,
  );
  expect(result.is_error).toBe(false);
  const run: Msg = result.content.value.runs[0];
  const report = await client.waitFor(
    (m) =>
      m.type === "message_complete" &&
      m.agent_id === agentId &&
      m.message.role === "user" &&
      JSON.stringify(m.message).includes(run.run_id),
    from,
    100_000,
  );
  expect(JSON.stringify(report.message)).toContain(childSays);
  const listed = await client.ok({ type: "agent.list" });
  const child = listed.agents.find((a: Msg) => a.parent_agent_id === agentId);
  if (!child) throw new Error(`no child of ${agentId} is listed`);
  return child;
}
