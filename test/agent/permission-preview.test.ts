/**
 * A file tool's permission request shows the change before it is allowed (issue 20 A.3):
 * `edit`'s diff, `write`'s diff against the file there, or a new file's content. Through a real
 * `shard agent` process on the mock model; nothing is written before the answer.
 */
import { beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentProcess, Msg } from "./support/agent-process.ts";
import { writeFiles } from "./support/agent-process.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

const { llm, start } = useAgentHarness();
// Each test leaves its request open: drop the replies it never used.
beforeEach(() => llm().clearQueue());

/** Asks for one tool call and returns its permission request, still open. */
async function askFor(agent: AgentProcess, name: string, args: Record<string, unknown>): Promise<Msg> {
  llm().enqueue({ steps: [{ tool_call: { name, args } }] }, { steps: [{ text: "done" }] });
  const from = agent.events.length;
  expect((await agent.request({ type: "prompt", message: `run ${name}` })).success).toBe(true);
  return agent.waitType("permission_request", from);
}

describe("permission previews", () => {
  test("edit shows the diff it would make, and the file is unchanged until allowed", async () => {
    const agent = start();
    writeFiles(agent.cwd, { "app.ts": "const a = 1;\nconst port = 3000;\nexport { a };\n" });
    const req = await askFor(agent, "edit", {
      path: "app.ts",
      old_string: "const port = 3000;",
      new_string: "const port = 8080;",
    });
    expect(req.preview.kind).toBe("diff");
    expect(req.preview.path).toBe("app.ts");
    const lines = req.preview.hunks.flatMap((h: Msg) => h.lines);
    expect(lines).toContain("-const port = 3000;");
    expect(lines).toContain("+const port = 8080;");
    expect(readFileSync(join(agent.cwd, "app.ts"), "utf8")).toContain("3000");
  });

  test("write over a file shows the diff against it; a new file shows its content", async () => {
    const agent = start();
    writeFiles(agent.cwd, { "notes.md": "# Notes\nold line\n" });
    const over = await askFor(agent, "write", { path: "notes.md", content: "# Notes\nnew line\n" });
    expect(over.preview.kind).toBe("diff");
    const lines = over.preview.hunks.flatMap((h: Msg) => h.lines);
    expect(lines).toEqual(expect.arrayContaining(["-old line", "+new line"]));
    const answered = agent.events.length;
    agent.send({ type: "permission_response", request_id: over.request_id, choice_id: "deny" });
    await agent.waitType("turn_end", answered);

    const fresh = await askFor(agent, "write", { path: "src/new.ts", content: "export const x = 1;\n" });
    expect(fresh.preview).toEqual({ kind: "code", path: "src/new.ts", text: "export const x = 1;\n" });
    expect(existsSync(join(agent.cwd, "src/new.ts"))).toBe(false);
  });

  test("an edit that cannot apply asks without a preview", async () => {
    const agent = start();
    writeFiles(agent.cwd, { "app.ts": "nothing to see\n" });
    const req = await askFor(agent, "edit", { path: "app.ts", old_string: "absent", new_string: "x" });
    expect(req.preview).toBeUndefined();
  });
});
