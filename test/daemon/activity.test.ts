/**
 * `agent_activity` (docs/protocol.md §11.2) reaches every connection, attached or not, and is
 * sanitized: a secret in the prompt, in the tool arguments and in the model's text never shows
 * up in anything an unattached client receives, and no activity event carries a path.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { type DaemonHarness, useDaemonHarnesses } from "./support/daemon-harness.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
let harness: DaemonHarness | undefined;
const startHarness = useDaemonHarnesses(llm);

test("an unattached client sees coarse activity and never a secret", async () => {
  harness = await startHarness();
  const outsider = await harness.unixClient();
  const driver = await harness.unixClient();
  const agentId = await harness.createAgent(driver);
  await driver.ok({ type: "agent.attach", agent_id: agentId });
  llm().enqueue(
    {
      steps: [
        { text: "Running SECRET-TEXT-1 " },
        { tool_call: { name: "bash", args: { command: "echo SECRET-ARG-2" } } },
      ],
    },
    { steps: [{ thinking: "SECRET-THINK-3" }, { text: "Done SECRET-TEXT-4" }] },
  );
  const from = driver.messages.length;
  await driver.ok({ type: "prompt", agent_id: agentId, message: "use SECRET-PROMPT-5 please" });
  const req = await driver.waitAgent(agentId, "permission_request", from);
  await driver.ok({
    type: "permission_response",
    agent_id: agentId,
    request_id: req.request_id,
    decision: "allow",
  });
  await driver.waitAgent(agentId, "turn_end", from);
  // The driver saw the secrets; the outsider waits for the idle activity, then a response of its own.
  expect(JSON.stringify(driver.messages)).toContain("SECRET-ARG-2");
  await outsider.waitFor((m) => m.type === "agent_activity" && m.phase === "idle" && m.status === "idle");
  await outsider.ok({ type: "agent.list" });

  const everything = JSON.stringify(outsider.messages);
  expect(everything).not.toContain("SECRET");
  const activity = outsider.messages.filter((m) => m.type === "agent_activity");
  expect(activity.every((m) => m.agent_id === agentId && typeof m.timestamp === "number")).toBe(true);
  const phases = activity.map((m) => m.phase);
  for (const phase of ["thinking", "streaming", "waiting", "tool", "idle"]) expect(phases).toContain(phase);
  expect(activity.find((m) => m.phase === "tool")?.tool_name).toBe("bash");
  expect(JSON.stringify(activity)).not.toContain(harness.cwd);
  for (const m of activity)
    expect(Object.keys(m).sort()).toEqual(
      ["agent_id", "phase", "status", "timestamp", "type", ...(m.tool_name ? ["tool_name"] : [])].sort(),
    );
  // The daemon log never holds prompt, model or tool text either.
  expect(readFileSync(join(harness.home, "logs", "daemon.log"), "utf8")).not.toContain("SECRET");
  // Nothing per-agent reached the outsider: it never attached.
  expect(outsider.agentEvents(agentId)).toEqual([]);
  expect(outsider.schemaViolations).toEqual([]);
});
