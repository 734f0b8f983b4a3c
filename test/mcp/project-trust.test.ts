/**
 * A repository's `.mcp.json` through a real `shard agent` (docs/mcp.md, "Project servers and
 * trust"). Negative tests: its server, a command that would leave a marker file, is not started
 * and its tools are not offered to the model until a person trusts that exact file; a changed
 * file asks again; a person's deny is remembered for that content; a headless answer or "not
 * now" trusts nothing and remembers nothing; the file cannot turn the sandbox off.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { AgentProcess, Msg } from "../agent/support/agent-process.ts";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { useAgentHarness } from "../agent/support/harness.ts";
import { shard } from "../cli/support/shard-cli.ts";
import { type Repo, repository, writeProjectFile } from "./project-repo.ts";
import { EVERYTHING, pidsWith, programsWith, runEnv, writeMcpConfig } from "./support.ts";

setDefaultTimeout(60_000);

const { llm, spawn } = useAgentHarness();

const offeredNames = (index: number): string[] =>
  llm().requests[index]?.body.tools.map((t: Msg) => t.function.name) ?? [];

/** Prompts; returns the trust question once it is asked (the turn waits for it). */
async function promptUntilAsked(agent: AgentProcess, reply = true): Promise<{ from: number; ask: Msg }> {
  // A turn aborted at the question never reaches the model: it queues no reply.
  if (reply) llm().enqueue({ steps: [{ text: "ok" }] });
  const from = agent.events.length;
  expect((await agent.request({ type: "prompt", message: "hello" })).success).toBe(true);
  const ask = await agent.waitType("permission_request", from);
  return { from, ask };
}

async function answer(agent: AgentProcess, ask: Msg, reply: Record<string, unknown>): Promise<void> {
  const res = await agent.request({ type: "permission_response", request_id: ask.request_id, ...reply });
  expect(res.success).toBe(true);
}

/** A turn with no question: its provider request and whether the project's tools were in it. */
async function quietTurn(agent: AgentProcess): Promise<Msg[]> {
  llm().enqueue({ steps: [{ text: "ok" }] });
  const before = llm().requests.length;
  const events = await agent.prompt("hello again");
  expect(events.filter((e) => e.type === "permission_request")).toEqual([]);
  expect(offeredNames(before)).toContain("bash");
  return events;
}

describe("a project's .mcp.json", () => {
  test("is not started and its tools are not offered until trusted; the question names the command, never env values; trusting starts it", async () => {
    const repo = repository();
    const home = mockHome(llm().url);
    const agent = await spawn({ home, cwd: repo.cwd });
    const requestsBefore = llm().requests.length;
    const { from, ask } = await promptUntilAsked(agent);

    // The question: the exact file, every command word, the env NAME only.
    const file = join(repo.root, ".mcp.json");
    expect(ask.tool_name).toBe("mcp_trust");
    expect(ask.prompt).toStartWith(`Trust the MCP servers of ${file}? It would run: everything: sh -c `);
    expect(ask.prompt).toContain(EVERYTHING);
    expect(ask.input).toEqual({
      file,
      servers: [
        {
          name: "everything",
          command: "sh",
          args: [
            "-c",
            `touch ${repo.marker}; exec "$0" "$@"`,
            process.execPath,
            EVERYTHING,
            "stdio",
            repo.tag,
          ],
          env_names: ["PROJECT_TOKEN"],
        },
      ],
    });
    expect(ask.choices.map((c: Msg) => c.id)).toEqual(["trust", "not_now", "deny"]);
    expect(JSON.stringify(agent.events)).not.toContain("s3cret-value");
    // While the question is open: nothing ran, and the model has not been asked anything.
    expect(existsSync(repo.marker)).toBe(false);
    expect(pidsWith(repo.tag)).toEqual([]);
    expect(llm().requests.length).toBe(requestsBefore);

    await answer(agent, ask, { choice_id: "trust" });
    await agent.waitTurnEnd(from);
    expect(offeredNames(requestsBefore)).toContain("mcp__everything__echo");
    expect(existsSync(repo.marker)).toBe(true);
    // Confined (the agent's sandbox), as every stdio server.
    expect(programsWith(repo.tag).some((p) => p.endsWith("bwrap"))).toBe(true);

    // Remembered, owner-only: the next runtime starts it without asking.
    expect(statSync(join(home, "mcp-trust.json")).mode & 0o777).toBe(0o600);
    await agent.close();
    const next = await spawn({ home, cwd: repo.cwd });
    await quietTurn(next);
    expect(offeredNames(llm().requests.length - 1)).toContain("mcp__everything__echo");
  });

  test("a changed file asks again, and until then starts nothing", async () => {
    const repo = repository();
    const home = mockHome(llm().url);
    const first = await spawn({ home, cwd: repo.cwd });
    const asked = await promptUntilAsked(first);
    await answer(first, asked.ask, { choice_id: "trust" });
    await first.waitTurnEnd(asked.from);
    await first.close();
    rmMarker(repo);

    // Same command, one more argument: another file, another question.
    const changed = JSON.parse(readFileSync(join(repo.root, ".mcp.json"), "utf8"));
    changed.mcpServers.everything.args.push("changed");
    writeProjectFile(repo.root, changed.mcpServers);
    const agent = await spawn({ home, cwd: repo.cwd });
    const requestsBefore = llm().requests.length;
    const { from, ask } = await promptUntilAsked(agent);
    expect(ask.input.servers[0].args).toContain("changed");
    expect(existsSync(repo.marker)).toBe(false);
    expect(pidsWith(repo.tag)).toEqual([]);
    await answer(agent, ask, { choice_id: "not_now" });
    await agent.waitTurnEnd(from);
    expect(offeredNames(requestsBefore)).not.toContain("mcp__everything__echo");
    expect(existsSync(repo.marker)).toBe(false);
    // "Not now" lasts for this runtime: no second question.
    await quietTurn(agent);
    expect(existsSync(repo.marker)).toBe(false);
  });

  test("a person's deny is remembered for that file: the next runtime neither asks nor starts it", async () => {
    const repo = repository();
    const home = mockHome(llm().url);
    const first = await spawn({ home, cwd: repo.cwd });
    const { from, ask } = await promptUntilAsked(first);
    await answer(first, ask, { choice_id: "deny" });
    await first.waitTurnEnd(from);
    await first.close();

    const next = await spawn({ home, cwd: repo.cwd });
    await quietTurn(next);
    expect(offeredNames(llm().requests.length - 1)).not.toContain("mcp__everything__echo");
    expect(existsSync(repo.marker)).toBe(false);
    expect(pidsWith(repo.tag)).toEqual([]);
  });

  test("a headless deny, a bare allow, or an abort trusts nothing and is not remembered: the next runtime asks again", async () => {
    const repo = repository();
    const home = mockHome(llm().url);
    const first = await spawn({ home, cwd: repo.cwd });
    const requestsBefore = llm().requests.length;
    const asked = await promptUntilAsked(first);
    await answer(first, asked.ask, { decision: "deny", source: "headless", reason: "nobody attached" });
    await first.waitTurnEnd(asked.from);
    expect(offeredNames(requestsBefore)).not.toContain("mcp__everything__echo");
    expect(existsSync(repo.marker)).toBe(false);
    await first.close();
    expect(existsSync(join(home, "mcp-trust.json"))).toBe(false);

    const next = await spawn({ home, cwd: repo.cwd });
    const again = await promptUntilAsked(next);
    expect(again.ask.tool_name).toBe("mcp_trust");
    // A bare "allow" decision (what a blanket responder sends) is not a person's trust either.
    await answer(next, again.ask, { decision: "allow" });
    await next.waitTurnEnd(again.from);
    const warning = next.events
      .slice(again.from)
      .find((e) => e.type === "error" && e.message.includes("are not started"));
    expect(warning?.message).toContain(`only a person's "trust" choice trusts a project file`);
    expect(existsSync(repo.marker)).toBe(false);
    expect(existsSync(join(home, "mcp-trust.json"))).toBe(false);
    await next.close();

    const third = await spawn({ home, cwd: repo.cwd });
    const thirdAsk = await promptUntilAsked(third, false);
    // An abort cancels the question: nothing starts, nothing is remembered.
    expect((await third.request({ type: "abort" })).success).toBe(true);
    await third.waitTurnEnd(thirdAsk.from);
    expect(existsSync(repo.marker)).toBe(false);
    expect(pidsWith(repo.tag)).toEqual([]);
    expect(existsSync(join(home, "mcp-trust.json"))).toBe(false);
  });

  test('"sandbox": "off" in a project file is refused with a warning: trusted, the server still runs confined', async () => {
    const repo = repository({ sandbox: "off" });
    const home = mockHome(llm().url);
    const agent = await spawn({ home, cwd: repo.cwd });
    const warning = agent.events.find((e) => e.type === "error" && e.message.includes('"sandbox": "off"'));
    expect(warning?.message).toBe(
      `${join(repo.root, ".mcp.json")}: server "everything": "sandbox": "off" is ignored in a project file (only your own mcp.json can run a server outside the sandbox)`,
    );
    const { from, ask } = await promptUntilAsked(agent);
    await answer(agent, ask, { choice_id: "trust" });
    await agent.waitTurnEnd(from);
    expect(programsWith(repo.tag).some((p) => p.endsWith("bwrap"))).toBe(true);
  });

  test("a project server named like one of the user's: the user's is used, with a warning, and nothing is asked", async () => {
    const repo = repository();
    const home = mockHome(llm().url);
    const userTag = `${repo.tag}-user`;
    writeMcpConfig(home, { everything: { command: process.execPath, args: [EVERYTHING, "stdio", userTag] } });
    const agent = await spawn({ home, cwd: repo.cwd });
    expect(
      agent.events.some(
        (e) => e.type === "error" && e.message.includes("is also in your mcp.json; yours is used"),
      ),
    ).toBe(true);
    await quietTurn(agent);
    expect(offeredNames(llm().requests.length - 1)).toContain("mcp__everything__echo");
    expect(pidsWith(userTag).length).toBeGreaterThan(0);
    expect(existsSync(repo.marker)).toBe(false);
  });
});

describe("shard run in a repository with a .mcp.json", () => {
  test("--yes does not trust it: nothing starts, nothing is remembered, and the run succeeds with a warning", async () => {
    const repo = repository();
    const home = tempDir("home");
    llm().enqueue({ steps: [{ text: "Done." }] });
    const res = await shard(["run", "--yes", "--cwd", repo.cwd, "hello"], runEnv(home, llm().url));
    expect(res.code).toBe(0);
    expect(res.stdout).toBe("Done.\n");
    expect(res.stderr).toContain(`the MCP servers of ${join(repo.root, ".mcp.json")} are not started`);
    expect(
      llm()
        .requests.at(-1)
        ?.body.tools.map((t: Msg) => t.function.name),
    ).not.toContain("mcp__everything__echo");
    expect(existsSync(repo.marker)).toBe(false);
    expect(existsSync(join(home, "mcp-trust.json"))).toBe(false);
  });
});

function rmMarker(repo: Repo): void {
  rmSync(repo.marker, { force: true });
}
