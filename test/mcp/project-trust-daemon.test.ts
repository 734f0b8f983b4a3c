/**
 * A repository's `.mcp.json` under the daemon with nobody to answer: the daemon's headless policy
 * answers the trust question (deny, source headless), so nothing of the repository runs, its tools
 * are not offered, and nothing is remembered.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Msg } from "../daemon/support/daemon-client.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { repository } from "./project-repo.ts";
import { pidsWith } from "./support.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);

test("headless (only an observer attached): the trust question is denied by the daemon, nothing starts, nothing is remembered", async () => {
  const repo = repository();
  const harness = await startHarness();
  const client = await harness.client("unix");
  const agentId = await harness.createAgent(client, { cwd: repo.cwd });
  await client.ok({ type: "agent.attach", agent_id: agentId, role: "observer" });
  llm().enqueue({ steps: [{ text: "ok" }] });
  const requestsBefore = llm().requests.length;
  const from = client.messages.length;
  expect((await client.request({ type: "prompt", agent_id: agentId, message: "hello" })).success).toBe(true);
  const ask = await client.waitAgent(agentId, "permission_request", from);
  expect(ask.tool_name).toBe("mcp_trust");
  const resolved = await client.waitAgent(agentId, "permission_resolved", from);
  expect(resolved).toMatchObject({ decision: "deny", source: "headless" });
  await client.waitAgent(agentId, "turn_end", from);
  const offered = llm().requests[requestsBefore]?.body.tools.map((t: Msg) => t.function.name);
  expect(offered).toContain("bash");
  expect(offered).not.toContain("mcp__everything__echo");
  expect(existsSync(repo.marker)).toBe(false);
  expect(pidsWith(repo.tag)).toEqual([]);
  expect(existsSync(join(harness.home, "mcp-trust.json"))).toBe(false);
});
