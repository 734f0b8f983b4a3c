/**
 * Checkpoints through the daemon: `list_checkpoints`, `checkpoint_diff` and `restore_checkpoint` reach the agent's
 * runtime by `agent_id`, and their answers match their result schemas (the harness checks).
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { askBash } from "../daemon/support/ask-bash.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);

test("a bash turn is listed and undone through the daemon", async () => {
  const harness = await startHarness();
  const a = await harness.unixClient();
  const agentId = await harness.createAgent(a);
  await a.ok({ type: "agent.attach", agent_id: agentId });
  const from = a.messages.length;
  const asked = await askBash(llm(), a, agentId, "echo made > made.txt");
  await a.ok({
    type: "permission_response",
    agent_id: agentId,
    request_id: asked.request_id,
    choice_id: "allow_once",
  });
  await a.waitAgent(agentId, "turn_end", from);
  expect(readFileSync(join(harness.cwd, "made.txt"), "utf8")).toBe("made\n");

  const { checkpoints } = await a.ok({ type: "list_checkpoints", agent_id: agentId });
  expect(checkpoints).toHaveLength(1);
  expect(checkpoints[0].files_changed).toBe(1);
  const diff = await a.ok({
    type: "checkpoint_diff",
    agent_id: agentId,
    checkpoint_id: checkpoints[0].checkpoint_id,
  });
  expect(diff.files.map((f: { path: string; status: string }) => `${f.status} ${f.path}`)).toEqual([
    "added made.txt",
  ]);
  expect(diff.files[0].hunks[0].lines).toEqual(["+made"]);
  const restored = await a.ok({
    type: "restore_checkpoint",
    agent_id: agentId,
    checkpoint_id: checkpoints[0].checkpoint_id,
  });
  expect(restored.restored).toEqual(["made.txt"]);
  expect(existsSync(join(harness.cwd, "made.txt"))).toBe(false);

  const unknown = await a.request({ type: "restore_checkpoint", agent_id: agentId, checkpoint_id: "nope" });
  expect(unknown.error.code).toBe("NOT_FOUND");
});
