/**
 * A `command` placement (docs/placements.md): the daemon runs `shard agent` through a template
 * that passes stdio through like `kubectl exec -i`; the agent's session and cwd are on the far
 * side. Also the placements.json checks a user sees.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../agent/support/agent-process.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { execScript, remoteShard, writePlacements } from "./support/remote-shard.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startHarness = useDaemonHarnesses(llm);

describe("command placement", () => {
  test("a turn runs through the template; the session is written on the placement; agent.list names it", async () => {
    const harness = await startHarness();
    const remote = remoteShard(llm().url);
    writePlacements(harness.home, {
      pod: { kind: "command", argv: [execScript(), "-i", "pod-0", "--", remote.shard, "agent"] },
    });
    const client = await harness.unixClient();
    const created = await client.ok({
      type: "agent.create",
      cwd: remote.cwd,
      model: "mock/chat",
      placement: "pod",
    });
    const agentId = String(created.agent_id);
    await client.ok({ type: "agent.attach", agent_id: agentId });
    llm().enqueue({ steps: [{ text: "hello from the pod" }] });
    const from = client.messages.length;
    await client.ok({ type: "prompt", agent_id: agentId, message: "hi" });
    const end = await client.waitAgent(agentId, "turn_end", from);
    expect(end.type).toBe("turn_end");
    const text = client
      .agentEvents(agentId, from)
      .filter((m) => m.type === "message_delta")
      .map((m) => String(m.text_delta ?? ""))
      .join("");
    expect(text).toContain("hello from the pod");
    const list = await client.ok({ type: "agent.list" });
    const agents = Array.isArray(list.agents) ? list.agents : [];
    const info = agents.find((a: { agent_id?: string }) => a.agent_id === agentId);
    expect(info?.placement).toBe("pod");
    expect(info?.cwd).toBe(remote.cwd);
    // The runtime wrote its session on the placement's home, not the daemon's.
    expect(readdirSync(join(remote.home, "sessions")).length).toBe(1);
    expect(existsSync(join(harness.home, "sessions"))).toBe(false);
    // A local agent on the same daemon lists as local.
    const localId = await harness.createAgent(client);
    const again = await client.ok({ type: "agent.list" });
    const local = (Array.isArray(again.agents) ? again.agents : []).find(
      (a: { agent_id?: string }) => a.agent_id === localId,
    );
    expect(local?.placement).toBe("local");
  });

  test("each placement has its own runtime cap: a full one stops its own oldest idle runtime, never another placement's", async () => {
    const harness = await startHarness({ maxRuntimes: 1 });
    const remote = remoteShard(llm().url);
    writePlacements(harness.home, {
      pod: { kind: "command", argv: [execScript(), "-i", "pod-0", "--", remote.shard, "agent"] },
    });
    const client = await harness.unixClient();
    const local = await harness.createAgent(client);
    const first = await client.ok({
      type: "agent.create",
      cwd: remote.cwd,
      model: "mock/chat",
      placement: "pod",
    });
    const firstId = String(first.agent_id);
    const state = async (id: string) => {
      const list = await client.ok({ type: "agent.list" });
      return (Array.isArray(list.agents) ? list.agents : []).find(
        (a: { agent_id?: string }) => a.agent_id === id,
      )?.runtime_state;
    };
    // --max-runtimes 1 and one runtime here already: the pod still had room.
    expect(await state(local)).toBe("running");
    expect(await state(firstId)).toBe("running");
    const places = await client.ok({ type: "placement.list" });
    expect(places.placements).toEqual([
      { name: "local", kind: "local", live: 1, max: 1 },
      { name: "pod", kind: "command", live: 1, max: 1 },
    ]);
    // A second pod agent: the pod's idle runtime makes room, the local one is untouched.
    const second = await client.ok({
      type: "agent.create",
      cwd: remote.cwd,
      model: "mock/chat",
      placement: "pod",
    });
    expect(await state(String(second.agent_id))).toBe("running");
    expect(await state(firstId)).toBe("stopped");
    expect(await state(local)).toBe("running");
  });

  test("an unknown placement or a bad entry is refused at agent.create with the reason; nothing is kept", async () => {
    const harness = await startHarness();
    writePlacements(harness.home, {
      argvless: { kind: "command", argv: ["kubectl", "exec", "-i", "pod"] },
      "bad name!": { kind: "command", argv: ["x", "agent"] },
    });
    const client = await harness.unixClient();
    const unknown = await client.request({ type: "agent.create", cwd: "/srv", placement: "nowhere" });
    expect(unknown.success).toBe(false);
    expect(unknown.error.code).toBe("INVALID_REQUEST");
    expect(unknown.error.message).toContain('no placement "nowhere"');
    expect(unknown.error.message).toContain("local");
    const bad = await client.request({ type: "agent.create", cwd: "/srv", placement: "argvless" });
    expect(bad.error.message).toContain('"argv" must end in the shard binary and "agent"');
    const relative = await client.request({ type: "agent.create", cwd: "srv", placement: "argvless" });
    expect(relative.success).toBe(false);
    const list = await client.ok({ type: "agent.list" });
    expect(list.agents).toEqual([]);
  });

  test("security: a host or user that reads as an ssh option is refused, and nothing runs", async () => {
    const harness = await startHarness();
    const marker = join(tempDir("marker"), "ran");
    writePlacements(harness.home, {
      opt: { kind: "ssh", host: `-oProxyCommand=touch ${marker}` },
      user: { kind: "ssh", host: "localhost", user: `-oProxyCommand=touch ${marker}` },
    });
    const client = await harness.unixClient();
    for (const placement of ["opt", "user"]) {
      const res = await client.request({ type: "agent.create", cwd: "/srv", placement });
      expect(res.success).toBe(false);
      expect(res.error.message).toContain('not starting with "-"');
    }
    expect(existsSync(marker)).toBe(false);
  });
});
