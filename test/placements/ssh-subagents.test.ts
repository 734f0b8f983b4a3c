/**
 * Subagents of an agent on an ssh placement (docs/placements.md, subagents), over a real OpenSSH
 * server on loopback: the remote runtime's `subagent` tool reaches the daemon through the
 * socket ssh forwards (`-R`), the child runs on the same placement, and the parent's
 * conversation gets its report; the link's sockets are gone once the runtime exits. The link is
 * a narrow capability: through it nothing but that agent's own `subagent.*` commands pass.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { DaemonClient } from "../daemon/support/daemon-client.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { childReportedToParent } from "./support/child-report.ts";
import { remoteShard } from "./support/remote-shard.ts";
import { createPlacedAgent, linkOf, placeSshBox, until, useSshd } from "./support/ssh-test.ts";
import { hasSshd } from "./support/sshd.ts";

setDefaultTimeout(120_000);

if (!hasSshd)
  console.log(
    "test/placements/ssh-subagents: SKIPPED: no /usr/sbin/sshd here (apt-get install openssh-server; CI installs it)",
  );

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startHarness = useDaemonHarnesses(llm);
const server = useSshd();

async function remoteParent() {
  const harness = await startHarness();
  const remote = remoteShard(llm().url);
  placeSshBox(harness.home, server(), remote.shard);
  const client = await harness.unixClient();
  const agentId = await createPlacedAgent(client, remote.cwd);
  return { harness, client, remote, agentId };
}

describe.skipIf(!hasSshd)("subagents of an agent on an ssh placement", () => {
  test("the remote agent's model launches a child through the forwarded socket and gets its report; the link goes with the runtime", async () => {
    const { harness, client, agentId } = await remoteParent();
    const link = linkOf(agentId);
    if (link === undefined) throw new Error("ssh forwards no socket for the runtime");
    const { remote: remoteSocket, local: localSocket } = link;
    expect(existsSync(remoteSocket)).toBe(true);
    expect(localSocket.startsWith(join(harness.home, "run", "links"))).toBe(true);
    expect(existsSync(localSocket)).toBe(true);
    // The remote directory is private to the ssh user.
    expect(statSync(dirname(remoteSocket)).mode & 0o777).toBe(0o700);

    const child = await childReportedToParent(llm(), client, agentId, "REMOTE", "child counted 42");
    expect(child.placement).toBe("box");

    await client.ok({ type: "agent.terminate", agent_id: agentId });
    await until(() => !existsSync(dirname(remoteSocket)) && !existsSync(localSocket));
  });

  test("through the link nothing passes but the agent's own subagent.* commands", async () => {
    const { client, agentId } = await remoteParent();
    const other = String(
      (await client.ok({ type: "agent.create", cwd: "/tmp", model: "mock/chat" })).agent_id,
    );
    const link = linkOf(agentId);
    if (link === undefined) throw new Error("ssh forwards no socket for the runtime");
    // What anyone who reaches the forwarded socket on the far side could send.
    const intruder = await DaemonClient.unix(link.remote);
    const forOther = await intruder.request({ type: "subagent.status", parent_agent_id: other });
    expect(forOther.success).toBe(false);
    expect(forOther.error.code).toBe("PERMISSION_DENIED");
    const create = await intruder.request({
      type: "subagent.create",
      parent_agent_id: other,
      tasks: [{ name: "x", task: "as another agent" }],
      strategy: "parallel",
    });
    expect(create.error.code).toBe("PERMISSION_DENIED");
    for (const command of [
      { type: "agent.list" },
      { type: "agent.create", cwd: "/tmp", model: "mock/chat" },
      { type: "prompt", agent_id: other, message: "run this" },
      { type: "auth.list" },
    ]) {
      const answer = await intruder.request(command);
      expect(answer.success).toBe(false);
      expect(answer.error.code).toBe("PERMISSION_DENIED");
    }
    // No other agent's events cross the hop; its own commands do.
    const own = await intruder.ok({ type: "subagent.status", parent_agent_id: agentId });
    expect(own).toEqual({ agents: [], jobs: [] });
    expect(intruder.messages.some((m) => m.type !== "hello" && m.type !== "response")).toBe(false);
    const listed = await client.ok({ type: "agent.list" });
    expect(listed.agents.length).toBe(2);
  });
});
