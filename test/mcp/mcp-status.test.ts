/**
 * Each agent's MCP servers are visible (docs/mcp.md, protocol-additions §19): a real
 * `shard agent` says `mcp_status` (starting, then ready with its tool count) at the first turn,
 * a server that cannot start is `failed` with its error scrubbed of the entry's secrets, and the
 * daemon carries the state in `agent.list` and in the `sync` of a client attaching later.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Msg } from "../agent/support/agent-process.ts";
import { mockHome } from "../agent/support/agent-process.ts";
import { useAgentHarness } from "../agent/support/harness.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { everythingStdio, writeMcpConfig } from "./support.ts";

setDefaultTimeout(60_000);

const { llm, spawn } = useAgentHarness();
const startDaemon = useDaemonHarnesses(llm);

const SECRET = "hush-hush-8c1f2e";

/** A stdio server that prints its token to stderr and exits before it speaks MCP. */
const leaky = {
  command: process.execPath,
  args: ["-e", "console.error('token=' + process.env.MY_TOKEN); process.exit(1)"],
  env: { MY_TOKEN: SECRET },
};

/** How many tools of `server` the model was offered in its newest request. */
function offeredCount(server: string): number {
  const tools: Msg[] = llm().requests.at(-1)?.body.tools ?? [];
  return tools.filter((t) => String(t.function.name).startsWith(`mcp__${server}__`)).length;
}

describe("mcp_status from a shard agent", () => {
  test("nothing before the first turn; then starting, and ready with the tool count the model sees", async () => {
    const home = mockHome(llm().url);
    writeMcpConfig(home, { everything: everythingStdio(`shard-mcp-status-${process.pid}`) });
    const agent = await spawn({ home });
    await agent.barrier();
    expect(agent.events.filter((e) => e.type === "mcp_status")).toEqual([]);
    expect(agent.events.find((e) => e.type === "sync")?.mcp_servers).toBeUndefined();

    llm().enqueue({ steps: [{ text: "hi" }] });
    const events = await agent.prompt("hello");
    const statuses = events.filter((e) => e.type === "mcp_status").map((e) => e.servers);
    expect(statuses[0]).toEqual([{ name: "everything", state: "starting", tools: 0 }]);
    const tools = offeredCount("everything");
    expect(tools).toBeGreaterThan(5);
    expect(statuses.at(-1)).toEqual([{ name: "everything", state: "ready", tools }]);

    // The next turn changes nothing, so it says nothing.
    llm().enqueue({ steps: [{ text: "again" }] });
    const again = await agent.prompt("again");
    expect(again.filter((e) => e.type === "mcp_status")).toEqual([]);
  });

  test("a server that cannot start is failed, its error redacted; the agent carries on", async () => {
    const home = mockHome(llm().url);
    writeMcpConfig(home, { leaky });
    const agent = await spawn({ home });
    llm().enqueue({ steps: [{ text: "still here" }] });
    const events = await agent.prompt("hello");
    const last = events.filter((e) => e.type === "mcp_status").at(-1);
    expect(last?.servers).toHaveLength(1);
    const [server] = last?.servers ?? [];
    expect(server).toMatchObject({ name: "leaky", state: "failed", tools: 0 });
    expect(server.error).toContain("could not start");
    expect(server.error).toContain("token=[redacted]");
    expect(events.find((e) => e.type === "message_complete" && e.message.role === "assistant")).toBeDefined();
    // The secret is in no event the agent wrote.
    expect(JSON.stringify(agent.events)).not.toContain(SECRET);
  });
});

describe("mcp_servers through the daemon", () => {
  test("agent.list and a later attach's sync show each server's state and tool count", async () => {
    const home = mockHome(llm().url);
    writeMcpConfig(home, {
      everything: everythingStdio(`shard-mcp-status-daemon-${process.pid}`),
      leaky,
    });
    const harness = await startDaemon({ home });
    const a = await harness.unixClient();
    const agentId = await harness.createAgent(a);
    await a.ok({ type: "agent.attach", agent_id: agentId });
    llm().enqueue({ steps: [{ text: "hi" }] });
    const from = a.messages.length;
    await a.ok({ type: "prompt", agent_id: agentId, message: "hello" });
    await a.waitAgent(agentId, "turn_end", from);
    const tools = offeredCount("everything");

    const expectServers = (servers: Msg[] | undefined) => {
      const byName = Object.fromEntries((servers ?? []).map((s) => [s.name, s]));
      expect(byName.everything).toEqual({ name: "everything", state: "ready", tools });
      expect(byName.leaky).toMatchObject({ name: "leaky", state: "failed", tools: 0 });
      expect(byName.leaky.error).toContain("token=[redacted]");
    };
    const { agents } = await a.ok({ type: "agent.list" });
    expectServers(agents.find((x: Msg) => x.agent_id === agentId)?.mcp_servers);

    const b = await harness.unixClient();
    const before = b.messages.length;
    await b.ok({ type: "agent.attach", agent_id: agentId });
    const sync = await b.waitAgent(agentId, "sync", before);
    expectServers(sync.mcp_servers);
    expect(JSON.stringify([a.messages, b.messages])).not.toContain(SECRET);
  });
});
