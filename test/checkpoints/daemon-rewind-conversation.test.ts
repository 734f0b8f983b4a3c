/**
 * `restore_checkpoint` with `conversation: true` through the daemon: the attached client gets a
 * `sync` naming the fork, the next prompt's provider request no longer holds the rewound turn,
 * and the agent's manifest follows the fork, so a restarted runtime resumes the fork too.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { DaemonClient } from "../daemon/support/daemon-client.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

setDefaultTimeout(90_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);

/** One prompt to its end, allowing what it asks. */
async function turn(client: DaemonClient, agentId: string, message: string): Promise<void> {
  const from = client.messages.length;
  await client.ok({ type: "prompt", agent_id: agentId, message });
  let at = from;
  for (;;) {
    const next = await client.waitFor(
      (m) => m.agent_id === agentId && (m.type === "permission_request" || m.type === "turn_end"),
      at,
    );
    at = client.messages.indexOf(next) + 1;
    if (next.type === "turn_end") return;
    await client.ok({
      type: "permission_response",
      agent_id: agentId,
      request_id: next.request_id,
      choice_id: "allow_once",
    });
  }
}

const lastRequest = () => JSON.stringify(llm().requests.at(-1)?.body);

test("a conversation restore through the daemon re-syncs clients and survives a runtime restart", async () => {
  const harness = await startHarness();
  const a = await harness.unixClient();
  const agentId = await harness.createAgent(a);
  await a.ok({ type: "agent.attach", agent_id: agentId });

  llm().enqueue({
    steps: [{ tool_call: { name: "write", args: { path: "one.txt", content: "1\n" } } }, { text: "ok" }],
  });
  await turn(a, agentId, "PROMPT-ONE");
  llm().enqueue({
    steps: [{ tool_call: { name: "write", args: { path: "two.txt", content: "2\n" } } }, { text: "ok" }],
  });
  await turn(a, agentId, "PROMPT-TWO");
  const { checkpoints } = await a.ok({ type: "list_checkpoints", agent_id: agentId });
  const beforeTwo = checkpoints[0];
  expect(beforeTwo.turn_id).toBeDefined();

  const from = a.messages.length;
  const rewound = await a.ok({
    type: "restore_checkpoint",
    agent_id: agentId,
    checkpoint_id: beforeTwo.checkpoint_id,
    conversation: true,
  });
  expect(rewound.restored).toEqual(["two.txt"]);
  expect(existsSync(join(harness.cwd, "two.txt"))).toBe(false);
  expect(readFileSync(join(harness.cwd, "one.txt"), "utf8")).toBe("1\n");
  const forkId = rewound.conversation.session_id;

  // The attached client was re-synced with the fork, at the daemon's seq (no gap).
  const sync = await a.waitAgent(agentId, "sync", from);
  expect(sync.session_id).toBe(forkId);
  expect(JSON.stringify(sync.live_window)).toContain("PROMPT-ONE");
  expect(JSON.stringify(sync.live_window)).not.toContain("PROMPT-TWO");
  // A client attaching now sees the fork too.
  const b = await harness.unixClient();
  const fromB = b.messages.length;
  await b.ok({ type: "agent.attach", agent_id: agentId, role: "observer" });
  const attachedSync = await b.waitAgent(agentId, "sync", fromB);
  expect(attachedSync.session_id).toBe(forkId);
  expect(attachedSync.seq).toBeGreaterThanOrEqual(sync.seq);

  llm().enqueue({ steps: [{ text: "again" }] });
  await turn(a, agentId, "PROMPT-THREE");
  expect(lastRequest()).toContain("PROMPT-ONE");
  expect(lastRequest()).toContain("PROMPT-THREE");
  expect(lastRequest()).not.toContain("PROMPT-TWO");

  // The manifest follows the fork: a restarted runtime resumes it.
  await a.ok({ type: "agent.terminate", agent_id: agentId });
  await a.waitFor((m) => m.type === "agent_status_changed" && m.runtime_state === "stopped");
  llm().enqueue({ steps: [{ text: "resumed" }] });
  await turn(a, agentId, "PROMPT-FOUR");
  const resumed = lastRequest();
  expect(resumed).toContain("PROMPT-THREE");
  expect(resumed).toContain("PROMPT-FOUR");
  expect(resumed).not.toContain("PROMPT-TWO");
});
