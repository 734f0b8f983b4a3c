/**
 * `agent.create`'s `mcp_servers` (docs/protocol-additions.md §25) over the daemon's real sockets:
 * from the unix socket the agent's runtime gets them (kept owner-only beside its manifest, for
 * every generation), `agent.delete` removes them; from a WebSocket client (a browser) they are
 * refused and nothing is created; a bad server is refused up front with its name.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../agent/support/agent-process.ts";
import { everythingStdio } from "../mcp/support.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import type { Msg } from "./support/daemon-client.ts";
import { useDaemonHarnesses } from "./support/daemon-harness.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer({ clearRequestsBeforeEach: true, clearQueueBeforeEach: true });
const startHarness = useDaemonHarnesses(llm);

const offeredTools = (index: number): string[] =>
  (llm().requests[index]?.body.tools ?? []).map((t: Msg) => t.function.name);

describe("agent.create mcp_servers", () => {
  test("from the unix socket: the runtime offers their tools, the file is owner-only, agent.delete removes it", async () => {
    const harness = await startHarness();
    const client = await harness.unixClient();
    const agentId = await harness.createAgent(client, {
      mcp_servers: { everything: everythingStdio("agent-create-mcp") },
    });
    const file = join(harness.home, "agents", agentId, "mcp-servers.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8")).mcpServers.everything.args).toContain("agent-create-mcp");

    await client.ok({ type: "agent.attach", agent_id: agentId, role: "observer" });
    llm().enqueue({ steps: [{ text: "seen" }] });
    const from = client.messages.length;
    await client.ok({ type: "prompt", agent_id: agentId, message: "which tools?" });
    await client.waitAgent(agentId, "turn_end", from);
    expect(offeredTools(0)).toContain("mcp__everything__echo");

    await client.ok({ type: "agent.delete", agent_id: agentId });
    expect(existsSync(file)).toBe(false);
  });

  test("from a WebSocket client: PERMISSION_DENIED, no agent, the command never runs", async () => {
    const harness = await startHarness();
    const browser = await harness.wsClient();
    const marker = join(tempDir("mcp-marker"), "ran");
    const refused = await browser.request({
      type: "agent.create",
      cwd: harness.cwd,
      model: "mock/chat",
      mcp_servers: { evil: { command: "/bin/sh", args: ["-c", `touch ${marker}`] } },
    });
    expect(refused.success).toBe(false);
    expect(refused.error.code).toBe("PERMISSION_DENIED");
    expect(refused.error.message).toContain("unix socket only");
    expect((await browser.ok({ type: "agent.list" })).agents).toEqual([]);
    expect(existsSync(join(harness.home, "agents")) ? readdirSync(join(harness.home, "agents")) : []).toEqual(
      [],
    );
    expect(existsSync(marker)).toBe(false);
    // The same browser creates agents without the field as before.
    const plain = await browser.ok({ type: "agent.create", cwd: harness.cwd, model: "mock/chat" });
    expect(typeof plain.agent_id).toBe("string");
  });

  test("a bad server is refused with its name and the field; nothing is created", async () => {
    const harness = await startHarness();
    const client = await harness.unixClient();
    const badName = await client.request({
      type: "agent.create",
      cwd: harness.cwd,
      mcp_servers: { a__b: { command: "/bin/true" } },
    });
    expect(badName.error.code).toBe("INVALID_REQUEST");
    expect(badName.error.message).toContain('"mcp_servers"');
    expect(badName.error.message).toContain("a__b");
    const unsetVar = await client.request({
      type: "agent.create",
      cwd: harness.cwd,
      mcp_servers: {
        tokens: {
          url: "https://mcp.example.com/mcp",
          // biome-ignore lint/suspicious/noTemplateCurlyInString: mcp.json's ${VAR}, deliberately literal.
          headers: { Authorization: "${SHARD_TEST_UNSET_TOKEN}" },
        },
      },
    });
    expect(unsetVar.error.code).toBe("INVALID_REQUEST");
    expect(unsetVar.error.message).toContain("SHARD_TEST_UNSET_TOKEN");
    const both = await client.request({
      type: "agent.create",
      cwd: harness.cwd,
      mcp_servers: { mixed: { command: "/bin/true", url: "https://mcp.example.com/mcp" } },
    });
    expect(both.error.code).toBe("INVALID_REQUEST");
    expect((await client.ok({ type: "agent.list" })).agents).toEqual([]);
  });
});
