/**
 * A `container` placement through a real rootful podman (docs/placements.md): a turn in a
 * container of its own; a permission answered from a second client; the container killed
 * mid-turn (the agent shows stopped, keeps its identity, and the next prompt resumes its
 * session from the mounted home); a home that lost the session resuming from the daemon's copy
 * (transferred through podman); an orphaned container under the agent's label removed by the
 * next generation; the agent's model launching a child over the stdio link (protocol-additions
 * §27), the child in a container of its own, and the parent getting its report.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { mirrorPath } from "../../src/daemon/registry/session-mirror.ts";
import { askBash } from "../daemon/support/ask-bash.ts";
import type { DaemonClient, Msg } from "../daemon/support/daemon-client.ts";
import { type DaemonHarness, useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { type ContainerShard, containerShard, hasPodman, TEST_IMAGE, usePodman } from "./support/podman.ts";
import { writePlacements } from "./support/remote-shard.ts";
import { startingOk, until } from "./support/ssh-test.ts";

setDefaultTimeout(90_000);

if (!hasPodman) {
  console.log(
    "test/placements/container-placement: SKIPPED: no podman/runc here (apt-get install podman runc; CI installs them)",
  );
  // CI installs them (.ci/run): there a missing engine is a failure, never a silent skip.
  test.if(process.env.CI === "true")("podman and runc are installed", () => {
    expect(hasPodman).toBe(true);
  });
}

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startHarness = useDaemonHarnesses(llm);
const podman = usePodman();

async function containerAgent(): Promise<{
  harness: DaemonHarness;
  client: DaemonClient;
  shard: ContainerShard;
  agentId: string;
}> {
  const harness = await startHarness({ env: podman().env });
  const shard = containerShard(llm().url);
  writePlacements(harness.home, { box: shard.placement });
  const client = await harness.unixClient();
  const created = await startingOk(client, {
    type: "agent.create",
    cwd: shard.cwd,
    model: "mock/chat",
    placement: "box",
  });
  const agentId = String(created.agent_id);
  await client.ok({ type: "agent.attach", agent_id: agentId });
  return { harness, client, shard, agentId };
}

/** The running containers labelled as this agent's (what the orphan sweep looks for). */
async function ownedContainers(agentId: string): Promise<string[]> {
  const out = await podman().run(["ps", "-q", "--no-trunc", "--filter", `label=shard.owner=${agentId}`]);
  return out.split("\n").filter((line) => line !== "");
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

describe.skipIf(!hasPodman)("container placement (podman)", () => {
  test("a turn runs in a container labelled with the agent; the session is written on its mounted home", async () => {
    const { client, shard, agentId } = await containerAgent();
    expect((await ownedContainers(agentId)).length).toBe(1);
    llm().enqueue({ steps: [{ text: "hello from the container" }] });
    const from = client.messages.length;
    await client.ok({ type: "prompt", agent_id: agentId, message: "hi" });
    await client.waitAgent(agentId, "turn_end", from);
    expect(textOf(client, agentId, from)).toContain("hello from the container");
    const info = await infoOf(client, agentId);
    expect(info.placement).toBe("box");
    expect(info.runtime_state).toBe("running");
    expect(info.cwd).toBe(shard.cwd);
    expect(readdirSync(join(shard.home, "sessions")).length).toBe(1);
  });

  test("a permission asked in the container is answered from a second client; first answer wins", async () => {
    const { harness, client, shard, agentId } = await containerAgent();
    const second = await harness.unixClient();
    await second.ok({ type: "agent.attach", agent_id: agentId });
    const fromSecond = second.messages.length;
    // podman writes /run/.containerenv in every container: the command runs inside, in the
    // mounted project.
    const request = await askBash(
      llm(),
      client,
      agentId,
      "test -f /run/.containerenv && pwd && echo in-container",
    );
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
    expect(JSON.stringify(result)).toContain("in-container");
    expect(JSON.stringify(result)).toContain(shard.cwd);
  });

  test("the container killed mid-turn shows the agent stopped (same id); the next prompt resumes the session", async () => {
    const { client, agentId } = await containerAgent();
    llm().enqueue({ steps: [{ text: "partial " }, { hold: "kill" }, { text: "never" }] });
    const from = client.messages.length;
    await client.ok({ type: "prompt", agent_id: agentId, message: "first prompt, remember me" });
    await llm().waitForHold("kill");
    const running = await ownedContainers(agentId);
    expect(running.length).toBe(1);
    await podman().run(["kill", ...running]);
    const change = await client.waitFor(
      (m) => m.type === "agent_status_changed" && m.agent_id === agentId && m.runtime_state === "stopped",
      from,
    );
    expect(change.detail).toContain('lost its link to placement "box" (podman');
    const stopped = await infoOf(client, agentId);
    expect(stopped.runtime_state).toBe("stopped");
    expect(stopped.placement).toBe("box");
    // Stopped, not failed: no agent_exited.
    expect(client.messages.slice(from).some((m) => m.type === "agent_exited")).toBe(false);
    llm().release("kill");
    llm().enqueue({ steps: [{ text: "back again" }] });
    const again = client.messages.length;
    await startingOk(client, { type: "prompt", agent_id: agentId, message: "second prompt" });
    await client.waitAgent(agentId, "turn_end", again);
    expect(textOf(client, agentId, again)).toContain("back again");
    // The new container resumed the session from the mounted home: the first prompt reached the model.
    expect(JSON.stringify(llm().requests.at(-1)?.body)).toContain("first prompt, remember me");
    expect((await infoOf(client, agentId)).agent_id).toBe(agentId);
  });

  test("a container whose home lost the session resumes from the daemon's copy, pulled and pushed through podman", async () => {
    const { harness, client, shard, agentId } = await containerAgent();
    llm().enqueue({ steps: [{ text: "noted" }] });
    const from = client.messages.length;
    await client.ok({ type: "prompt", agent_id: agentId, message: "first prompt, keep me" });
    await client.waitAgent(agentId, "turn_end", from);
    await client.ok({ type: "agent.terminate", agent_id: agentId });
    await client.waitFor(
      (m) => m.type === "agent_status_changed" && m.agent_id === agentId && m.runtime_state === "stopped",
      from,
    );
    const sessionId = readdirSync(join(shard.home, "sessions"))[0] ?? "";
    const copy = mirrorPath(harness.home, "box", sessionId);
    // The daemon pulls its copy (`shard session export` in a container) after the turn_end.
    await until(() => existsSync(copy) && readFileSync(copy, "utf8").includes("first prompt, keep me"));
    // The volume is new: the session is gone from the container's home.
    rmSync(join(shard.home, "sessions"), { recursive: true });
    llm().enqueue({ steps: [{ text: "still here" }] });
    const again = client.messages.length;
    await startingOk(client, { type: "prompt", agent_id: agentId, message: "second prompt" });
    await client.waitAgent(agentId, "turn_end", again);
    expect(textOf(client, agentId, again)).toContain("still here");
    expect(JSON.stringify(llm().requests.at(-1)?.body)).toContain("first prompt, keep me");
    // `shard session import` in a container put the copy back, and the runtime continued it.
    const inHome = readFileSync(join(shard.home, "sessions", sessionId, "session.jsonl"), "utf8");
    expect(inHome).toContain("first prompt, keep me");
    expect(inHome).toContain("second prompt");
  });

  test("an orphaned container under the agent's label is removed by its next generation", async () => {
    const { client, agentId } = await containerAgent();
    const from = client.messages.length;
    await client.ok({ type: "agent.terminate", agent_id: agentId });
    await client.waitFor(
      (m) => m.type === "agent_status_changed" && m.agent_id === agentId && m.runtime_state === "stopped",
      from,
    );
    expect(await ownedContainers(agentId)).toEqual([]);
    // A runtime's container the engine kept running after its client went (a daemon crash).
    const orphan = (
      await podman().run([
        "run",
        "-d",
        "--label",
        `shard.owner=${agentId}`,
        "--mount",
        "type=bind,source=/usr,target=/usr,readonly",
        TEST_IMAGE,
        "/usr/bin/sleep",
        "600",
      ])
    ).trim();
    try {
      expect(await ownedContainers(agentId)).toEqual([orphan]);
      llm().enqueue({ steps: [{ text: "swept" }] });
      const again = client.messages.length;
      await startingOk(client, { type: "prompt", agent_id: agentId, message: "again" });
      await client.waitAgent(agentId, "turn_end", again);
      expect(textOf(client, agentId, again)).toContain("swept");
      const owned = await ownedContainers(agentId);
      expect(owned.length).toBe(1);
      expect(owned).not.toContain(orphan);
      expect(await podman().run(["ps", "-a", "-q", "--filter", `id=${orphan}`])).toBe("");
    } finally {
      await podman()
        .run(["rm", "-f", "-t", "0", "--ignore", orphan])
        .catch(() => "");
    }
  });

  test("the agent's model launches a child over the stdio link; the child runs in a container of its own and the parent gets its report", async () => {
    const { client, agentId } = await containerAgent();
    llm().enqueue(
      {
        when: "BOX-FAN-OUT",
        steps: [
          {
            tool_call: {
              name: "subagent",
              args: { action: "create", tasks: [{ name: "box-child", task: "TASK-BOX-CHILD count" }] },
            },
          },
        ],
      },
      { when: "BOX-FAN-OUT", steps: [{ text: "dispatched" }] },
      { when: "TASK-BOX-CHILD", steps: [{ text: "child counted 7 in a box" }] },
    );
    const from = client.messages.length;
    await client.ok({ type: "prompt", agent_id: agentId, message: "BOX-FAN-OUT" });
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
      80_000,
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
      80_000,
    );
    expect(JSON.stringify(report.message)).toContain("child counted 7 in a box");
    const listed = await client.ok({ type: "agent.list" });
    const child = listed.agents.find((a: Msg) => a.parent_agent_id === agentId);
    expect(child?.placement).toBe("box");
  });
});
