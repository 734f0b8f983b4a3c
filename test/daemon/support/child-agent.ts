/**
 * A child agent made the one way a client can (agent.create refuses `parent_agent_id`): a
 * `subagent.create` run of its parent, played to its end, and the parent's completion-report
 * turn with it. The child is then idle and no longer leased, so a test may prompt it, and the
 * mock LLM's queue is as the test left it.
 */
import type { MockLlmServer } from "../../support/mock-llm/types.ts";
import type { DaemonClient } from "./daemon-client.ts";

let made = 0;

export async function childAgent(
  llm: MockLlmServer,
  client: DaemonClient,
  parent: string,
  name = "child",
): Promise<string> {
  const task = `TASK-CHILD-${++made}`;
  const reportHold = `report-of-${task}`;
  llm.enqueue(
    { when: task, steps: [{ text: "ready" }] },
    // No tokens: the parent's usage stays what the test makes it.
    {
      when: "subagent_report",
      steps: [{ hold: reportHold }, { text: "noted" }],
      usage: { input: 0, output: 0 },
    },
  );
  const created = await client.ok({ type: "subagent.create", parent_agent_id: parent, name, task });
  const run = created.runs[0];
  await client.ok({ type: "subagent.wait", parent_agent_id: parent, handles: [run.run_id] });
  await llm.waitForHold(reportHold);
  llm.release(reportHold);
  return String(run.agent_id);
}
