/**
 * grep, find and ls with a real AgentSandbox (bubblewrap probed on this machine): denied paths
 * with glob metacharacters in their names, and below a search root deeper than cwd, are left
 * out by both backends. The agent-level attacks are in file-tools.test.ts.
 */
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolResult } from "../../src/contracts/tool.ts";
import { AgentSandbox } from "../../src/sandbox/agent-sandbox.ts";
import { resolveSandboxSettings } from "../../src/sandbox/sandbox-settings.ts";
import { createFindTool } from "../../src/tools/find.ts";
import { createGrepTool } from "../../src/tools/grep.ts";
import { createLsTool } from "../../src/tools/ls.ts";
import { makeTempDir } from "../support/temp-dirs.ts";
import { resultText, toolContext } from "../tools/helpers.ts";
import { describeEachBackend } from "../tools/search-tree.ts";

const SECRET = "HIDDEN-SEARCH-SECRET";
/** Names a glob would misread: brackets, a star, a space, a leading `!` and `#`. */
const DENIED = ["we[i]rd *dir", "sub/!bang.txt", "sub/#notes", "sub/deep/{a,b}.key"];

const opened: AgentSandbox[] = [];
afterEach(() => {
  for (const sandbox of opened.splice(0)) sandbox.close();
});

function setUp(): { cwd: string; sandbox: AgentSandbox } {
  const cwd = makeTempDir("shard-hidden-search-");
  const home = makeTempDir("shard-hidden-search-home-");
  writeFileSync(join(home, "config.json"), JSON.stringify({ sandbox: { deny: DENIED } }));
  const files = [
    "we[i]rd *dir/inner.txt",
    "sub/!bang.txt",
    "sub/#notes/n.txt",
    "sub/deep/{a,b}.key",
    // Near misses of the denied names stay visible.
    "weird dir/inner.txt",
    "sub/bang.txt",
    "sub/deep/a.key",
  ];
  for (const file of files) {
    mkdirSync(join(cwd, file, ".."), { recursive: true });
    writeFileSync(join(cwd, file), `${SECRET} ${file}\n`);
  }
  const settings = resolveSandboxSettings({ mode: "workspace-write" }, { PATH: process.env.PATH }, home);
  const open = AgentSandbox.open({ settings, cwd, home, env: { PATH: process.env.PATH } });
  if (!open.ok) throw new Error(open.error.message);
  opened.push(open.sandbox);
  return { cwd, sandbox: open.sandbox };
}

const VISIBLE = ["sub/bang.txt", "sub/deep/a.key", "weird dir/inner.txt"];

function lines(result: ToolResult): string[] {
  expect(result.is_error).toBe(false);
  return (resultText(result).split("\n\n")[0] ?? "").split("\n");
}

describeEachBackend("hidden paths", (backend) => {
  test("grep and find from cwd show only the near misses", async () => {
    const { cwd, sandbox } = setUp();
    const grep = createGrepTool({ backend, hidden: sandbox });
    const find = createFindTool({ backend, hidden: sandbox });
    const grepped = await grep.execute({ pattern: SECRET }, toolContext(cwd));
    expect(lines(grepped)).toEqual(VISIBLE.map((file) => `${file}:1: ${SECRET} ${file}`));
    expect(resultText(grepped)).toContain("[Paths the sandbox hides");
    expect(lines(await find.execute({ pattern: "*" }, toolContext(cwd)))).toEqual(VISIBLE);
  });

  test("a search rooted below cwd leaves out what is hidden below it", async () => {
    const { cwd, sandbox } = setUp();
    const grep = createGrepTool({ backend, hidden: sandbox });
    const find = createFindTool({ backend, hidden: sandbox });
    expect(lines(await grep.execute({ pattern: SECRET, path: "sub" }, toolContext(cwd)))).toEqual([
      `sub/bang.txt:1: ${SECRET} sub/bang.txt`,
      `sub/deep/a.key:1: ${SECRET} sub/deep/a.key`,
    ]);
    expect(lines(await find.execute({ pattern: "*", path: "sub/deep" }, toolContext(cwd)))).toEqual([
      "sub/deep/a.key",
    ]);
  });
});

test("ls leaves hidden entries out and says so; with the sandbox off it lists them", async () => {
  const { cwd, sandbox } = setUp();
  const ls = createLsTool({ hidden: sandbox });
  expect(lines(await ls.execute({ path: "sub" }, toolContext(cwd)))).toEqual(["bang.txt", "deep/"]);
  expect(resultText(await ls.execute({ path: "sub" }, toolContext(cwd)))).toContain(
    "[Paths the sandbox hides",
  );
  expect(sandbox.setMode("off")).toEqual({ ok: true });
  expect(lines(await ls.execute({ path: "sub" }, toolContext(cwd)))).toEqual([
    "!bang.txt",
    "#notes/",
    "bang.txt",
    "deep/",
  ]);
});
