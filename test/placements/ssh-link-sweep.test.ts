/**
 * A subagent link directory left on the far side by a runtime whose remote shell was killed
 * (`kill -9`: the shell that removes it after the runtime never gets to) is removed by the
 * agent's next generation, and by the next daemon start, through the placement, over a real
 * OpenSSH server on loopback (docs/placements.md, subagents).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { basename, dirname } from "node:path";
import { readLinkDirs } from "../../src/daemon/registry/link-dir-record.ts";
import type { DaemonClient, Msg } from "../daemon/support/daemon-client.ts";
import { type DaemonHarness, useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { remoteShard } from "./support/remote-shard.ts";
import {
  createPlacedAgent,
  linkOf,
  placeSshBox,
  remoteShellOf,
  startingOk,
  until,
  useSshd,
} from "./support/ssh-test.ts";
import { hasSshd } from "./support/sshd.ts";

setDefaultTimeout(120_000);

if (!hasSshd)
  console.log(
    "test/placements/ssh-link-sweep: SKIPPED: no /usr/sbin/sshd here (apt-get install openssh-server; CI installs it)",
  );

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startHarness = useDaemonHarnesses(llm);
const server = useSshd();

async function sshAgent(
  onHarness?: DaemonHarness,
): Promise<{ harness: DaemonHarness; client: DaemonClient; agentId: string }> {
  const harness = onHarness ?? (await startHarness());
  const remote = remoteShard(llm().url);
  placeSshBox(harness.home, server(), remote.shard);
  const client = await harness.unixClient();
  const agentId = await createPlacedAgent(client, remote.cwd);
  return { harness, client, agentId };
}

/** The far-side link directory of the agent's running generation. */
function linkDirOf(agentId: string): string {
  const link = linkOf(agentId);
  if (link === undefined) throw new Error("ssh forwards no socket for the runtime");
  return dirname(link.remote);
}

/** The `shard-link.<name>` part the daemon records. */
const nameOf = (dir: string) => basename(dir).replace(/^shard-link\./, "");

/**
 * Kills -9 the remote shell of the agent's generation (the runtime goes on without it), then
 * stops the runtime: its link directory stays behind on the far side.
 */
async function leaveLinkDirBehind(client: DaemonClient, agentId: string): Promise<string> {
  const dir = linkDirOf(agentId);
  expect(existsSync(dir)).toBe(true);
  const shell = remoteShellOf(agentId);
  if (shell === undefined) throw new Error("no remote shell for the runtime");
  process.kill(shell, "SIGKILL");
  const from = client.messages.length;
  await client.ok({ type: "agent.terminate", agent_id: agentId });
  await client.waitFor(
    (m: Msg) => m.type === "agent_status_changed" && m.agent_id === agentId && m.runtime_state === "stopped",
    from,
    60_000,
  );
  await until(() => remoteShellOf(agentId) === undefined && linkOf(agentId) === undefined, 30_000);
  // Nothing removed it: the shell that would have was killed.
  expect(existsSync(dir)).toBe(true);
  return dir;
}

describe.skipIf(!hasSshd)("ssh placement: link directories left behind", () => {
  test("the agent's next generation removes the directory a killed remote shell left; the record keeps only the live one", async () => {
    const { harness, client, agentId } = await sshAgent();
    const first = await leaveLinkDirBehind(client, agentId);
    expect(readLinkDirs(harness.home, "box", agentId)).toEqual([nameOf(first)]);

    llm().enqueue({ steps: [{ text: "next generation" }] });
    const from = client.messages.length;
    await startingOk(client, { type: "prompt", agent_id: agentId, message: "start again" });
    await client.waitAgent(agentId, "turn_end", from);
    expect(existsSync(first)).toBe(false);
    const second = linkDirOf(agentId);
    expect(second).not.toBe(first);
    expect(existsSync(second)).toBe(true);
    expect(readLinkDirs(harness.home, "box", agentId)).toEqual([nameOf(second)]);
  });

  test("a daemon start removes the directories left behind (two agents on one placement), before any generation", async () => {
    const { harness, client, agentId } = await sshAgent();
    const other = await sshAgent(harness);
    const left = await leaveLinkDirBehind(client, agentId);
    const otherLeft = await leaveLinkDirBehind(other.client, other.agentId);
    await harness.stop();
    expect([existsSync(left), existsSync(otherLeft)]).toEqual([true, true]);

    const restarted = await startHarness({ home: harness.home });
    await until(() => !existsSync(left) && !existsSync(otherLeft), 60_000);
    await until(
      () =>
        readLinkDirs(harness.home, "box", agentId).length === 0 &&
        readLinkDirs(harness.home, "box", other.agentId).length === 0,
      10_000,
    );
    const after = await restarted.unixClient();
    const list = await after.ok({ type: "agent.list" });
    for (const id of [agentId, other.agentId]) {
      const info: Msg | undefined = list.agents.find((a: Msg) => a.agent_id === id);
      expect(info?.runtime_state).toBe("stopped");
    }
  });
});
