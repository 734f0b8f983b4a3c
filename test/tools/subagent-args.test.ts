/** The model's `subagent` tool refuses what the daemon would refuse, before it dials the daemon. */
import { expect, test } from "bun:test";
import { socketRoute } from "../../src/tools/daemon-call.ts";
import { createSubagentTool } from "../../src/tools/subagent.ts";
import { toolContext } from "./helpers.ts";

const tool = createSubagentTool({ daemon: socketRoute("/nonexistent/daemon.sock"), agentId: "agent_p" });

test("create with timeout 0 is refused with the reason; a wait with timeout 0 is a poll and goes on", async () => {
  const ctx = toolContext("/tmp");
  const create = await tool.execute({ action: "create", tasks: [{ name: "n", task: "t" }], timeout: 0 }, ctx);
  expect(create).toMatchObject({
    is_error: true,
    content: { message: 'subagent create: "timeout" must be more than 0 seconds' },
  });
  // The poll passes the check and fails only at the (absent) daemon.
  const wait = await tool.execute({ action: "wait", handles: ["ada"], timeout: 0 }, ctx);
  expect(wait.is_error).toBe(true);
  expect(JSON.stringify(wait.content)).toContain("cannot reach the daemon");
});
