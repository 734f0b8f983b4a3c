/**
 * A hostile grants file through a real `shard agent` (issue 7 §A.4): a FIFO at the grants path
 * must not freeze the agent, no grant applies, and the client is told which file and why.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { grantFilePath } from "../../src/permissions/grant-store.ts";
import { mockHome, tempDir } from "./support/agent-process.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

const { llm, spawn } = useAgentHarness();

/** A home and project whose grants path holds what `plant` puts there. */
function projectWithGrantsPath(plant: (path: string) => void) {
  const home = mockHome(llm().url);
  const cwd = tempDir("grants-cwd");
  const path = grantFilePath(home, cwd);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  plant(path);
  return { home, cwd, path };
}

describe("a hostile grants file", () => {
  test("a FIFO at the grants path: the call asks, the client is warned, and list_modes is still answered", async () => {
    const { home, cwd, path } = projectWithGrantsPath((p) => {
      expect(Bun.spawnSync(["mkfifo", "-m", "600", p]).exitCode).toBe(0);
    });
    const agent = await spawn({ home, cwd });
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command: "echo hi" } } }] },
      { steps: [{ text: "done" }] },
    );
    const from = agent.events.length;
    expect((await agent.request({ type: "prompt", message: "run it" })).success).toBe(true);

    const warning = await agent.waitFor((m) => m.type === "error" && String(m.message).includes(path), from);
    expect(warning).toMatchObject({ code: "INVALID_REQUEST", fatal: false });
    expect(warning.message).toContain("a FIFO");
    const ask = await agent.waitType("permission_request", from);

    const modes = await agent.request({ type: "list_modes" });
    expect(modes.success).toBe(true);

    agent.send({ type: "permission_response", request_id: ask.request_id, decision: "deny" });
    await agent.waitTurnEnd(from);
  });

  test("a world-writable grants file with a matching grant is not trusted", async () => {
    const { home, cwd, path } = projectWithGrantsPath(() => {});
    const rule = {
      kind: "bash_signature",
      version: 2,
      signatures: [{ executable: "echo", subcommand: [], flags: [] }],
    };
    writeFileSync(path, JSON.stringify({ version: 1, cwd, rules: [rule] }));
    chmodSync(path, 0o666);
    const agent = await spawn({ home, cwd });
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command: "echo hi" } } }] },
      { steps: [{ text: "done" }] },
    );
    const from = agent.events.length;
    expect((await agent.request({ type: "prompt", message: "run it" })).success).toBe(true);
    const ask = await agent.waitType("permission_request", from);
    const warning = agent.events.slice(from).find((m) => m.type === "error");
    expect(warning?.message).toContain(`${path} is not trusted (group or others can access it: mode 0666)`);
    agent.send({ type: "permission_response", request_id: ask.request_id, decision: "deny" });
    await agent.waitTurnEnd(from);
  });
});
