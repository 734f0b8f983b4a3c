/**
 * The declarative `permissions: { allow, deny }` policy against real `shard agent` children on
 * the mock LLM: allowed commands run without a handler, deny wins over allow and over a handler,
 * what no rule covers goes to the handler or is refused naming the policy, and shell tricks
 * (`;`, `&&`, substitutions, wrappers) never ride on an allow rule (negative tests: the file the
 * trick would delete is still there).
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent } from "../../sdk/src/agent.ts";
import { connectDaemon } from "../../sdk/src/daemon-client.ts";
import { spawnAgent } from "../../sdk/src/direct.ts";
import type { PermissionPolicy } from "../../sdk/src/permission-policy.ts";
import type { AgentStreamEvent } from "../../sdk/src/stream-events.ts";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { CHILD_ENV } from "../support/child-env.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

// Real agent processes and daemons on a machine shared with other work.
setDefaultTimeout(60_000);

const llm = useMockLlmServer({ clearRequestsBeforeEach: true });
const startDaemon = useDaemonHarnesses(llm);
const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

async function start(permissions: PermissionPolicy): Promise<{ agent: Agent; cwd: string }> {
  const cwd = tempDir("cwd");
  const agent = await spawnAgent({
    home: mockHome(llm().url),
    cwd,
    model: "mock/chat",
    env: { ...CHILD_ENV, SHARD_RETRY_BASE_MS: "5" },
    permissions,
  });
  agents.push(agent);
  return { agent, cwd };
}

/** One turn in which the model runs each command in order; the tool results and resolutions seen. */
async function runCommands(agent: Agent, commands: string[]) {
  llm().enqueue(
    ...commands.map((command) => ({ steps: [{ tool_call: { name: "bash", args: { command } } }] })),
    { steps: [{ text: "done" }] },
  );
  const turn = await agent.prompt("run the commands");
  const events: AgentStreamEvent[] = [];
  for await (const event of turn) events.push(event);
  const results = events.flatMap((e) => (e.type === "tool_result" ? [JSON.stringify(e.content)] : []));
  const decisions = events.flatMap((e) => (e.type === "permission_resolved" ? [e.decision] : []));
  return { results, decisions };
}

describe("declarative permission policy", () => {
  test("an allowed command runs with no handler; `;`, `&&`, substitution and pipe tricks do not ride on it", async () => {
    const { agent, cwd } = await start({ allow: ["bash:echo *"] });
    const victim = join(cwd, "victim.txt");
    writeFileSync(victim, "keep me\n");
    const { results, decisions } = await runCommands(agent, [
      "echo allowed-by-policy",
      "echo x; rm -f victim.txt",
      "echo x && rm -f victim.txt",
      "echo $(rm -f victim.txt)",
      "echo x | rm -f victim.txt",
      "echo x\nrm -f victim.txt",
    ]);
    expect(results[0]).toContain("allowed-by-policy");
    expect(decisions).toEqual(["allow", "deny", "deny", "deny", "deny", "deny"]);
    for (const refused of results.slice(1)) expect(refused).toContain("permission policy");
    expect(existsSync(victim)).toBe(true);
  });

  test("deny wins over allow: `bash` allowed, `bash:rm *` denied, also as /bin/rm, behind sudo or bash -c", async () => {
    const { agent, cwd } = await start({ allow: ["bash"], deny: ["bash:rm *"] });
    const victim = join(cwd, "victim.txt");
    writeFileSync(victim, "keep me\n");
    const { results, decisions } = await runCommands(agent, [
      "echo still-allowed",
      "rm -f victim.txt",
      "/bin/rm -f victim.txt",
      "sudo rm -f victim.txt",
      "bash -c 'rm -f victim.txt'",
      "LANG=C rm -f victim.txt",
    ]);
    expect(results[0]).toContain("still-allowed");
    expect(decisions).toEqual(["allow", "deny", "deny", "deny", "deny", "deny"]);
    expect(results[1]).toContain("bash:rm *");
    expect(existsSync(victim)).toBe(true);
  });

  test("a malformed rule fails at spawn, naming it", async () => {
    const failure = await start({ allow: ["read:src/*"] }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "INVALID_REQUEST" });
    expect((failure as Error).message).toContain("read:src/*");
  });

  test("daemon: the policy answers first, the handler gets only what no rule covers", async () => {
    const h = await startDaemon();
    const client = await connectDaemon({ socketPath: h.socketPath });
    const agent = await client.createAgent({
      cwd: h.cwd,
      model: "mock/chat",
      permissions: { allow: ["bash:echo *"], deny: ["bash:rm *"] },
    });
    const asked: unknown[] = [];
    agent.onPermission((request) => {
      asked.push(request.input);
      return "allow";
    });
    const victim = join(h.cwd, "victim.txt");
    writeFileSync(victim, "keep me\n");
    const { results, decisions } = await runCommands(agent, ["echo by-policy", "rm -f victim.txt", "ls"]);
    expect(results[0]).toContain("by-policy");
    expect(decisions).toEqual(["allow", "deny", "allow"]);
    expect(asked).toEqual([{ command: "ls" }]);
    expect(existsSync(victim)).toBe(true);
    client.close();
  });
});
