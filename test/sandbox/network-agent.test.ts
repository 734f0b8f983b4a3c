/**
 * The network allowlist through a real `shard agent`: `--allow-host localhost`, and the mock model
 * runs `curl` with bash. The allowed host answers through the proxy; another is refused, and the
 * model reads why.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { probeBubblewrap } from "../../src/sandbox/bubblewrap-probe.ts";
import { useAgentHarness } from "../agent/support/harness.ts";
import { useHostServers } from "./support/host-servers.ts";

setDefaultTimeout(60_000);

const bwrap = probeBubblewrap(process.env);
if (!bwrap.ok) console.warn(`test/sandbox/network-agent.test.ts skipped: ${bwrap.reason}`);
const describeConfined = bwrap.ok ? describe : describe.skip;

const { llm, spawn } = useAgentHarness({
  args: [
    "--sandbox",
    "workspace-write",
    "--sandbox-policy",
    "auto-allow-sandboxed",
    "--allow-host",
    "localhost",
  ],
});

const servers = useHostServers();

describeConfined("network allowlist through a real agent", () => {
  test("a sandboxed bash call reaches the allowed host and is refused the other", async () => {
    const agent = await spawn();
    const sync = agent.events.find((e) => e.type === "sync");
    expect(sync?.sandbox).toMatchObject({ mode: "workspace-write", network_allow: ["localhost"] });
    const command = `curl -sS http://localhost:${servers.allowed().port}/; curl -sS http://127.0.0.1:${servers.other().port}/`;
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command } } }] },
      { steps: [{ text: "done" }] },
    );
    const from = agent.events.length;
    const res = await agent.request({ type: "prompt", message: "fetch both" });
    expect(res.success).toBe(true);
    const result = await agent.waitType("tool_result", from);
    await agent.waitTurnEnd(from);
    expect(result.sandbox).toBe("workspace-write");
    const output = JSON.stringify(result.content);
    expect(output).toContain("ALLOWED-SERVER");
    expect(output).toContain(
      `blocked by the Shard sandbox's network allowlist: 127.0.0.1; allowed: localhost`,
    );
    expect(output).not.toContain("OTHER-SERVER");
  });

  test("an HTTPS tunnel to a host not on the list fails with the sandbox's explanation", async () => {
    const agent = await spawn();
    const command = `curl -sS https://127.0.0.1:${servers.other().port}/`;
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command } } }] },
      { steps: [{ text: "done" }] },
    );
    const from = agent.events.length;
    expect((await agent.request({ type: "prompt", message: "fetch" })).success).toBe(true);
    const result = await agent.waitType("tool_result", from);
    await agent.waitTurnEnd(from);
    expect(result.is_error).toBe(true);
    const output = JSON.stringify(result.content);
    expect(output).toContain("CONNECT tunnel failed, response 403");
    expect(output).toContain("the network is off but for the allowlist");
  });

  test("without socat the agent says so at start", async () => {
    const agent = await spawn({ env: { SHARD_SOCAT: "none" } });
    const warning = await agent.waitFor((e) => e.type === "error" && e.fatal === false);
    expect(warning.message).toContain("sandbox.network.allow lists localhost, but socat is not installed");
  });
});
