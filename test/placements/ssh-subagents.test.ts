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
import { DaemonClient, type Msg } from "../daemon/support/daemon-client.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { remoteShard, writePlacements } from "./support/remote-shard.ts";
import { linkOf, startingOk, until, useSshd } from "./support/ssh-test.ts";
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
  writePlacements(harness.home, {
    box: {
      kind: "ssh",
      host: "127.0.0.1",
      port: server().port,
      user: server().user,
      ssh_config: server().config,
      shard: remote.shard,
    },
  });
  const client = await harness.unixClient();
  const created = await startingOk(client, {
    type: "agent.create",
    cwd: remote.cwd,
    model: "mock/chat",
    placement: "box",
  });
  const agentId = String(created.agent_id);
  await client.ok({ type: "agent.attach", agent_id: agentId });
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

    llm().enqueue(
      {
        when: "REMOTE-FAN-OUT",
        steps: [
          {
            tool_call: {
              name: "subagent",
              args: { action: "create", tasks: [{ name: "remote-child", task: "TASK-REMOTE-CHILD count" }] },
            },
          },
        ],
      },
      { when: "REMOTE-FAN-OUT", steps: [{ text: "dispatched" }] },
      { when: "TASK-REMOTE-CHILD", steps: [{ text: "child counted 42" }] },
    );
    const from = client.messages.length;
    await client.ok({ type: "prompt", agent_id: agentId, message: "REMOTE-FAN-OUT" });
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
    expect(JSON.stringify(report.message)).toContain("child counted 42");
    // The child ran on the parent's placement.
    const listed = await client.ok({ type: "agent.list" });
    const child = listed.agents.find((a: Msg) => a.parent_agent_id === agentId);
    expect(child?.placement).toBe("box");

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
