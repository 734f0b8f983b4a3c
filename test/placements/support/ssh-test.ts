/**
 * What the ssh placement test files share: one private sshd per file (started only where sshd
 * exists), a command whose answer waits for a runtime start over ssh, a bounded poll, and the
 * processes of an agent's generation as `ps` shows them.
 */
import { afterAll, beforeAll } from "bun:test";
import type { DaemonClient, Msg } from "../../daemon/support/daemon-client.ts";
import { writePlacements } from "./remote-shard.ts";
import { hasSshd, type Sshd, startSshd } from "./sshd.ts";

/** Registers the file's sshd (call once, at the top level); the getter throws if it is not running. */
export function useSshd(): () => Sshd {
  let sshd: Sshd | undefined;
  beforeAll(async () => {
    if (hasSshd) sshd = await startSshd();
  });
  afterAll(async () => {
    await sshd?.stop();
  });
  return () => {
    if (!sshd) throw new Error("sshd is not running");
    return sshd;
  };
}

/** The placements.json entry that reaches `sshd` and runs `shard` there (`port`: another, say a dead one). */
export function sshPlacement(sshd: Sshd, shard: string, port = sshd.port): Record<string, unknown> {
  return { kind: "ssh", host: "127.0.0.1", port, user: sshd.user, ssh_config: sshd.config, shard };
}

/** Gives the daemon on `home` one placement, `box`, over `sshd`, running `shard` there. */
export function placeSshBox(home: string, sshd: Sshd, shard: string): void {
  writePlacements(home, { box: sshPlacement(sshd, shard) });
}

/**
 * Creates an agent in `cwd` (a path on the placement) on `placement`, which starts its runtime
 * there, and attaches `client` to it; returns its id.
 */
export async function createPlacedAgent(
  client: DaemonClient,
  cwd: string,
  placement = "box",
): Promise<string> {
  const created = await startingOk(client, { type: "agent.create", cwd, model: "mock/chat", placement });
  const agentId = String(created.agent_id);
  await client.ok({ type: "agent.attach", agent_id: agentId });
  return agentId;
}

let sent = 0;
/**
 * A command whose answer waits for a runtime start over ssh (create, or a prompt that restores):
 * the bound is generous because CI's two shared cores make a start take seconds; nothing
 * asserts on time.
 */
export async function startingOk(client: DaemonClient, message: Msg): Promise<Msg> {
  sent += 1;
  const id = `start-${sent}`;
  const from = client.messages.length;
  client.send({ ...message, id });
  const res = await client.waitFor((m) => m.type === "response" && m.id === id, from, 100_000);
  if (!res.success) throw new Error(`${message.type} failed: ${JSON.stringify(res.error)}`);
  return res.data;
}

let asked = 0;
/**
 * A command whose answer takes a dozen ssh round trips (a retire's checks, a diff): bounded
 * generously, as startingOk is, since CI's shared cores make each hop take a while.
 */
export async function overSsh(c: DaemonClient, message: Msg): Promise<Msg> {
  asked += 1;
  const id = `over-ssh-${asked}`;
  const from = c.messages.length;
  c.send({ ...message, id });
  return c.waitFor((m) => m.type === "response" && m.id === id, from, 100_000);
}

export async function overSshOk(c: DaemonClient, message: Msg): Promise<Msg> {
  const res = await overSsh(c, message);
  if (!res.success) throw new Error(`${message.type} failed: ${JSON.stringify(res.error)}`);
  return res.data;
}

/** Waits for a condition the daemon makes true in the background (bounded, polled). */
export async function until(condition: () => boolean, timeoutMs = 80_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("the condition never held");
    await Bun.sleep(50);
  }
}

/**
 * The link of `agentId`'s runtime, from the daemon's ssh command line: `-R <remote>:<local>`,
 * with the agent id in the remote command.
 */
export function linkOf(agentId: string): { remote: string; local: string } | undefined {
  const ps = Bun.spawnSync(["ps", "-eo", "args="]).stdout.toString();
  for (const line of ps.split("\n")) {
    if (!line.startsWith("ssh ") || !line.includes(agentId)) continue;
    const found = /-R (\S+):(\S+)/.exec(line);
    if (found?.[1] !== undefined && found[2] !== undefined) return { remote: found[1], local: found[2] };
  }
  return undefined;
}

/** The far side's `sh -c` that runs `agentId`'s runtime and removes its link directory after it. */
export function remoteShellOf(agentId: string): number | undefined {
  const ps = Bun.spawnSync(["ps", "-eo", "pid=,args="]).stdout.toString();
  for (const line of ps.split("\n")) {
    const found = /^\s*(\d+) sh -c (.*)$/.exec(line);
    if (found?.[1] !== undefined && found[2]?.includes(agentId) && found[2].includes("rm -rf"))
      return Number(found[1]);
  }
  return undefined;
}
