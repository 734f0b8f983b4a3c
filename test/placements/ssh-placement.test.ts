/**
 * An `ssh` placement over a real OpenSSH server on a loopback port (docs/placements.md): a turn,
 * a permission answered from a second client, a dropped link mid-turn (the agent shows stopped,
 * keeps its identity, and the next prompt resumes its session), an unreachable host named in
 * RUNTIME_START_FAILED, a stale remote binary refused at hello, and a delete with the session
 * taking the daemon's copy of it.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { mirrorPath } from "../../src/daemon/registry/session-mirror.ts";
import { SHARD_MAIN, tempDir } from "../agent/support/agent-process.ts";
import { askBash } from "../daemon/support/ask-bash.ts";
import type { DaemonClient, Msg } from "../daemon/support/daemon-client.ts";
import { type DaemonHarness, useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { CHILD_ENV } from "../support/child-env.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { type RemoteShard, remoteShard, writePlacements } from "./support/remote-shard.ts";
import {
  createPlacedAgent,
  placeSshBox,
  sshPlacement,
  startingOk,
  until,
  useSshd,
} from "./support/ssh-test.ts";
import { hasSshd } from "./support/sshd.ts";

setDefaultTimeout(90_000);

if (!hasSshd)
  console.log(
    "test/placements/ssh-placement: SKIPPED: no /usr/sbin/sshd here (apt-get install openssh-server; CI installs it)",
  );

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startHarness = useDaemonHarnesses(llm);
const server = useSshd();

async function sshAgent(): Promise<{
  harness: DaemonHarness;
  client: DaemonClient;
  remote: RemoteShard;
  agentId: string;
}> {
  const harness = await startHarness();
  const remote = remoteShard(llm().url);
  placeSshBox(harness.home, server(), remote.shard);
  const client = await harness.unixClient();
  const agentId = await createPlacedAgent(client, remote.cwd);
  return { harness, client, remote, agentId };
}

async function infoOf(client: DaemonClient, agentId: string): Promise<Msg> {
  const list = await client.ok({ type: "agent.list" });
  const agents: Msg[] = Array.isArray(list.agents) ? list.agents : [];
  const info = agents.find((a) => a.agent_id === agentId);
  if (!info) throw new Error(`agent ${agentId} is not listed`);
  return info;
}

function textOf(client: DaemonClient, agentId: string, from: number): string {
  return client
    .agentEvents(agentId, from)
    .filter((m) => m.type === "message_delta")
    .map((m) => String(m.text_delta ?? ""))
    .join("");
}

describe.skipIf(!hasSshd)("ssh placement", () => {
  test("a turn runs on the host over ssh; the session is written there; agent.list names the placement", async () => {
    const { client, remote, agentId } = await sshAgent();
    llm().enqueue({ steps: [{ text: "hello over ssh" }] });
    const from = client.messages.length;
    await client.ok({ type: "prompt", agent_id: agentId, message: "hi" });
    await client.waitAgent(agentId, "turn_end", from);
    expect(textOf(client, agentId, from)).toContain("hello over ssh");
    const info = await infoOf(client, agentId);
    expect(info.placement).toBe("box");
    expect(info.runtime_state).toBe("running");
    expect(readdirSync(join(remote.home, "sessions")).length).toBe(1);
  });

  test("a permission asked on the host is answered from a second client; first answer wins", async () => {
    const { harness, client, agentId } = await sshAgent();
    const second = await harness.unixClient();
    await second.ok({ type: "agent.attach", agent_id: agentId });
    const fromSecond = second.messages.length;
    const request = await askBash(llm(), client, agentId, "echo remote-ok");
    const seen = await second.waitAgent(agentId, "permission_request", fromSecond);
    expect(seen.request_id).toBe(request.request_id);
    await second.ok({
      type: "permission_response",
      agent_id: agentId,
      request_id: request.request_id,
      decision: "allow",
    });
    const late = await client.request({
      type: "permission_response",
      agent_id: agentId,
      request_id: request.request_id,
      decision: "deny",
    });
    expect(late.success).toBe(true);
    const resolved = await client.waitAgent(agentId, "permission_resolved");
    expect(resolved.decision).toBe("allow");
    await client.waitAgent(agentId, "turn_end", fromSecond);
    const result = client.agentEvents(agentId).find((m) => m.type === "tool_result");
    expect(result?.is_error).toBe(false);
    expect(JSON.stringify(result)).toContain("remote-ok");
  });

  test("a dropped link mid-turn shows the agent stopped (same id); the next prompt resumes the session", async () => {
    const { client, agentId } = await sshAgent();
    llm().enqueue({ steps: [{ text: "partial " }, { hold: "drop" }, { text: "never" }] });
    const from = client.messages.length;
    await client.ok({ type: "prompt", agent_id: agentId, message: "first prompt, remember me" });
    await llm().waitForHold("drop");
    expect(server().dropConnections()).toBeGreaterThan(0);
    const change = await client.waitFor(
      (m) => m.type === "agent_status_changed" && m.agent_id === agentId && m.runtime_state === "stopped",
      from,
    );
    expect(change.detail).toContain('lost its link to placement "box" (ssh');
    const stopped = await infoOf(client, agentId);
    expect(stopped.runtime_state).toBe("stopped");
    expect(stopped.placement).toBe("box");
    // Stopped, not failed: no agent_exited.
    expect(client.messages.slice(from).some((m) => m.type === "agent_exited")).toBe(false);
    llm().release("drop");
    llm().enqueue({ steps: [{ text: "back again" }] });
    const again = client.messages.length;
    await startingOk(client, { type: "prompt", agent_id: agentId, message: "second prompt" });
    await client.waitAgent(agentId, "turn_end", again);
    expect(textOf(client, agentId, again)).toContain("back again");
    // The resumed session carried the first prompt to the model.
    const last = llm().requests.at(-1);
    expect(JSON.stringify(last?.body)).toContain("first prompt, remember me");
    expect((await infoOf(client, agentId)).agent_id).toBe(agentId);
  });

  test("the daemon keeps a copy of the session: a host that lost it resumes from the daemon's", async () => {
    const { harness, client, remote, agentId } = await sshAgent();
    llm().enqueue({ steps: [{ text: "noted" }] });
    const from = client.messages.length;
    await client.ok({ type: "prompt", agent_id: agentId, message: "first prompt, keep me" });
    await client.waitAgent(agentId, "turn_end", from);
    await client.ok({ type: "agent.terminate", agent_id: agentId });
    await client.waitFor(
      (m) => m.type === "agent_status_changed" && m.agent_id === agentId && m.runtime_state === "stopped",
      from,
    );
    const sessionId = readdirSync(join(remote.home, "sessions"))[0] ?? "";
    const copy = mirrorPath(harness.home, "box", sessionId);
    // The daemon pulls its copy after the turn_end it forwarded; wait until it has landed.
    await until(() => existsSync(copy) && readFileSync(copy, "utf8").includes("first prompt, keep me"));
    // The host loses its files (a new machine, a container without a volume).
    rmSync(join(remote.home, "sessions"), { recursive: true });
    llm().enqueue({ steps: [{ text: "still here" }] });
    const again = client.messages.length;
    await startingOk(client, { type: "prompt", agent_id: agentId, message: "second prompt" });
    await client.waitAgent(agentId, "turn_end", again);
    expect(textOf(client, agentId, again)).toContain("still here");
    expect(JSON.stringify(llm().requests.at(-1)?.body)).toContain("first prompt, keep me");
    expect(existsSync(copy)).toBe(true);
    // The session on the host is the daemon's copy, continued.
    const onHost = readFileSync(join(remote.home, "sessions", sessionId, "session.jsonl"), "utf8");
    expect(onHost).toContain("first prompt, keep me");
    expect(onHost).toContain("second prompt");
  });

  test("agent.delete with session removes the daemon's copy of the session", async () => {
    const { harness, client, remote, agentId } = await sshAgent();
    llm().enqueue({ steps: [{ text: "noted" }] });
    const from = client.messages.length;
    await client.ok({ type: "prompt", agent_id: agentId, message: "a turn to copy" });
    await client.waitAgent(agentId, "turn_end", from);
    const sessionId = readdirSync(join(remote.home, "sessions"))[0] ?? "";
    const copy = mirrorPath(harness.home, "box", sessionId);
    await until(() => existsSync(copy) && readFileSync(copy, "utf8").includes("a turn to copy"));
    await client.ok({ type: "agent.delete", agent_id: agentId, session: true });
    expect(existsSync(dirname(copy))).toBe(false);
    const list = await client.ok({ type: "agent.list" });
    expect(list.agents.map((a: Msg) => a.agent_id)).not.toContain(agentId);
  });

  test("a start while the host is unreachable is RUNTIME_START_FAILED naming the host; the agent stays", async () => {
    const harness = await startHarness();
    const remote = remoteShard(llm().url);
    // A port nothing listens on: the link cannot be made.
    const closed = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const deadPort = closed.port;
    closed.stop(true);
    writePlacements(harness.home, { gone: sshPlacement(server(), remote.shard, deadPort) });
    const client = await harness.unixClient();
    const res = await client.request({
      type: "agent.create",
      cwd: remote.cwd,
      model: "mock/chat",
      placement: "gone",
    });
    expect(res.success).toBe(false);
    expect(res.error.code).toBe("RUNTIME_START_FAILED");
    expect(res.error.message).toContain(`127.0.0.1:${deadPort}`);
    expect(res.error.message).toContain('placement "gone"');
    const agentId = String(res.error.data?.agent_id);
    const info = await infoOf(client, agentId);
    expect(info.placement).toBe("gone");
  });

  test("shard placement install copies the binary over ssh and reports its version; an agent runs from it", async () => {
    const harness = await startHarness();
    const remote = remoteShard(llm().url);
    const target = join(tempDir("installed"), "bin", "shard");
    writePlacements(harness.home, { box: sshPlacement(server(), target) });
    const proc = Bun.spawn(
      [process.execPath, SHARD_MAIN, "placement", "install", "box", "--binary", remote.shard],
      {
        env: { ...CHILD_ENV, SHARD_HOME: harness.home },
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    const [code, out, err] = await Promise.all([
      proc.exited,
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
    ]);
    expect(err).toBe("");
    expect(out).toBe(`installed ${target} on "box": shard ${pkg.version}\n`);
    expect(code).toBe(0);
    expect(readFileSync(target, "utf8")).toBe(readFileSync(remote.shard, "utf8"));
    expect(statSync(target).mode & 0o777).toBe(0o755);
    const client = await harness.unixClient();
    const created = await startingOk(client, {
      type: "agent.create",
      cwd: remote.cwd,
      model: "mock/chat",
      placement: "box",
    });
    expect((await infoOf(client, String(created.agent_id))).runtime_state).toBe("running");
  });

  test("a remote binary of another version is refused at hello, naming shard placement install", async () => {
    const harness = await startHarness();
    const stale = join(tempDir("stale"), "shard");
    writeFileSync(
      stale,
      `#!/bin/sh\necho '{"type":"hello","seq":0,"protocol_version":"1","server_version":"0.0.1-old","capabilities":[]}'\nexec cat >/dev/null\n`,
    );
    chmodSync(stale, 0o755);
    writePlacements(harness.home, { old: sshPlacement(server(), stale) });
    const client = await harness.unixClient();
    const res = await client.request({
      type: "agent.create",
      cwd: "/tmp",
      model: "mock/chat",
      placement: "old",
    });
    expect(res.success).toBe(false);
    expect(res.error.code).toBe("RUNTIME_START_FAILED");
    expect(res.error.message).toContain("runs shard 0.0.1-old");
    expect(res.error.message).toContain("shard placement install old");
  });
});
