/**
 * What the model is given (docs/architecture.md §6.5, issue "Agent runtime": modes, prompt,
 * context): the system prompt carries AGENTS.md/CLAUDE.md, the skills of the project and of
 * $SHARD_HOME, and the mode's addition; `--system-prompt-file` replaces the base prompt;
 * `--tools` limits what the model can call.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { mockHome, tempDir, writeFiles } from "./support/agent-process.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

const { llm, spawn, start } = useAgentHarness();

/** The system prompt and tool names of the chat request the agent sent last. */
function lastRequest(): { system: string; tools: string[] } {
  const body = llm().requests.at(-1)!.body;
  const system = body.messages.find((m: { role: string }) => m.role === "system")?.content ?? "";
  const tools = (body.tools ?? []).map((t: { function: { name: string } }) => t.function.name);
  return { system: typeof system === "string" ? system : JSON.stringify(system), tools };
}

describe("system prompt", () => {
  test("holds AGENTS.md, CLAUDE.md, skills from the project and SHARD_HOME, and the mode's addition", async () => {
    const home = mockHome(llm().url);
    writeFiles(home, {
      "AGENTS.md": "Global rule: answer in English.",
      "skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Ship a release to production\n---\nSteps...",
    });
    const root = tempDir("repo");
    const cwd = join(root, "pkg");
    writeFiles(root, {
      "CLAUDE.md": "Repo rule: use bun, never npm.",
      "pkg/AGENTS.md": "Package rule: tests live in test/.",
      "pkg/.shard/skills/migrate/SKILL.md": "---\ndescription: Write a database migration\n---\nHow to...",
      "pkg/.shard/modes/review.md":
        "---\ndescription: Review only\ntools: read\n---\nREVIEW-MODE: point out bugs.",
    });
    const agent = await spawn({ home, cwd });
    await agent.prompt("hello");
    const { system } = lastRequest();
    expect(system).toContain("Global rule: answer in English.");
    expect(system).toContain("Repo rule: use bun, never npm.");
    expect(system).toContain("Package rule: tests live in test/.");
    // Outermost first, nearest last: the nearest instructions read last.
    expect(system.indexOf("Repo rule")).toBeLessThan(system.indexOf("Package rule"));
    expect(system).toContain("deploy: Ship a release to production");
    expect(system).toContain("migrate: Write a database migration");
    expect(system).toContain(join(cwd, ".shard/skills/migrate/SKILL.md"));
    expect(system).toContain(`Working directory: ${cwd}`);
    expect(system).not.toContain("REVIEW-MODE");

    await agent.request({ type: "set_mode", mode: "review" });
    await agent.prompt("review please");
    const review = lastRequest();
    expect(review.system).toContain("REVIEW-MODE: point out bugs.");
    expect(review.tools).toEqual(["read"]);

    await agent.request({ type: "set_mode", mode: "plan" });
    await agent.prompt("plan please");
    expect(lastRequest().system).toContain("You are in plan mode");
  });

  test("--system-prompt-file replaces the base prompt but keeps the project context", async () => {
    const cwd = tempDir("cwd");
    writeFiles(cwd, { "AGENTS.md": "Project rule: be brief." });
    const promptFile = join(tempDir("prompt"), "base.md");
    writeFileSync(promptFile, "You are TestBot, a custom agent.");
    const agent = await spawn({ cwd, args: ["--system-prompt-file", promptFile] });
    await agent.prompt("hi");
    const { system } = lastRequest();
    expect(system.startsWith("You are TestBot, a custom agent.")).toBe(true);
    expect(system).not.toContain("You are Shard");
    expect(system).toContain("Project rule: be brief.");
  });
});

describe("--tools", () => {
  test("only the listed tools are offered to the model, and others are refused", async () => {
    const agent = await spawn({ args: ["--tools", "read,ls"] });
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command: "echo hi" } } }] },
      { steps: [{ text: "ok" }] },
    );
    const events = await agent.prompt("run something");
    const first = llm().requests.at(-2)!.body;
    expect(first.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(["read", "ls"]);
    const result = events.find((e) => e.type === "tool_result")!;
    expect(result.is_error).toBe(true);
    expect(result.content.message).toContain('unknown tool "bash"');
    expect(events.some((e) => e.type === "permission_request")).toBe(false);
  });

  test("an unknown tool name is a fatal start-up error naming it", async () => {
    const agent = start({ args: ["--tools", "read,teleport"] });
    const fatal = await agent.waitType("error");
    expect(fatal).toMatchObject({ code: "INVALID_REQUEST", fatal: true });
    expect(fatal.message).toContain("teleport");
    // A tool list on the command line that names no tool is bad usage (docs/runtime.md).
    expect(await agent.exited).toBe(2);
  });
});
