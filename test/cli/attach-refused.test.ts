/**
 * `shard attach` sends what is typed as requests: a command the daemon refuses is said on the
 * terminal. A child held by a subagent run refuses a direct prompt (the lease guard).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { LiveCli } from "./support/live-cli.ts";

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);
const clis: LiveCli[] = [];
afterEach(() => {
  for (const cli of clis.splice(0)) cli.kill();
});

describe("shard attach", () => {
  test("a prompt the daemon refuses (a child leased by a subagent run) is said, not lost", async () => {
    const h = await startHarness();
    const client = await h.unixClient();
    const parent = await h.createAgent(client);
    llm().enqueue({
      when: "TASK-ATTACH-LEASE",
      steps: [{ hold: "attach-lease" }, { text: "leased answer" }],
    });
    const created = await client.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "leased",
      task: "TASK-ATTACH-LEASE",
    });
    await llm().waitForHold("attach-lease");
    const cli = new LiveCli(["attach", created.runs[0].agent_id], { HOME: h.home, SHARD_HOME: h.home });
    clis.push(cli);
    await cli.waitFor("stderr", "attached to");
    cli.writeLine("do something else");
    await cli.waitFor("stderr", "prompt: CONFLICT:");
    expect(cli.output.stderr).toContain(created.runs[0].run_id);
    llm().release("attach-lease");
  });
});
