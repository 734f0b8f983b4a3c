/**
 * Issue 22: the file tools keep the sandbox's boundary, through a real `shard agent` and the
 * mock model. Each test is an attack that must fail with the sandbox on: a write outside the
 * writable roots (even with a saved grant, even through a symlink in cwd), a read of a secret
 * or of $SHARD_HOME (even through a symlink), a search or listing that would show a denied file,
 * a write in read-only mode. The controls at the end show the same calls with the sandbox off
 * reach the person's question, so the refusals above are the sandbox's doing.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { type AgentProcess, type Msg, mockHome, tempDir } from "../agent/support/agent-process.ts";
import { useAgentHarness } from "../agent/support/harness.ts";

setDefaultTimeout(60_000);

const { llm, spawn } = useAgentHarness();

const WORKSPACE_WRITE = ["--sandbox", "workspace-write"];
const READ_ONLY = ["--sandbox", "read-only"];
const OFF = ["--sandbox", "off"];

const SECRET = "SANDBOX-FILE-TOOLS-SECRET";

interface ToolRun {
  result: Msg;
  /** Every event of the turn. */
  events: Msg[];
  /** The model's request after the tool ran: what the model saw of the result. */
  nextRequestBody: string;
}

/** The mock model calls `name` with `args` once; `answer` replies to a permission request, if one comes. */
async function runTool(
  agent: AgentProcess,
  name: string,
  args: Record<string, unknown>,
  answer?: (request: Msg) => string,
): Promise<ToolRun> {
  llm().enqueue({ steps: [{ tool_call: { name, args } }] }, { steps: [{ text: "done" }] });
  const from = agent.events.length;
  const requestsBefore = llm().requests.length;
  const res = await agent.request({ type: "prompt", message: `please run ${name}` });
  expect(res.success).toBe(true);
  if (answer !== undefined) {
    const request = await agent.waitType("permission_request", from);
    agent.send({ type: "permission_response", request_id: request.request_id, choice_id: answer(request) });
  }
  const result = await agent.waitType("tool_result", from);
  const events = await agent.waitTurnEnd(from);
  return { result, events, nextRequestBody: JSON.stringify(llm().requests[requestsBefore + 1]?.body) };
}

/** A refusal by the sandbox: an error result, with no question to the person first. */
function expectRefused(run: ToolRun, message: string): void {
  expect(run.events.filter((e) => e.type === "permission_request")).toEqual([]);
  expect(run.result.is_error).toBe(true);
  expect(JSON.stringify(run.result.content)).toContain(JSON.stringify(message).slice(1, -1));
}

function resultText(run: ToolRun): string {
  const content = run.result.content;
  return typeof content?.text === "string" ? content.text : JSON.stringify(content);
}

/** A HOME (apart from $SHARD_HOME) with a private key in ~/.ssh. */
function fakeUserHome(): { home: string; key: string } {
  const home = tempDir("user-home");
  mkdirSync(join(home, ".ssh"), { mode: 0o700 });
  const key = join(home, ".ssh", "id_ed25519");
  writeFileSync(key, `-----BEGIN OPENSSH PRIVATE KEY-----\n${SECRET}\n`);
  chmodSync(key, 0o600);
  return { home, key };
}

describe("writes outside the writable roots (negative)", () => {
  test("a write outside cwd is refused with the sandbox on, though a saved grant allows it", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const target = join(tempDir("outside"), "granted.txt");
    const args = { path: target, content: "written" };

    // Sandbox off: the person answers "always", and the grant is saved for this project.
    const first = await spawn({ home, cwd, args: OFF });
    const granted = await runTool(first, "write", args, () => "allow_always_exact");
    expect(granted.result.is_error).toBe(false);
    expect(readFileSync(target, "utf8")).toBe("written");
    await first.close();
    // The grant works: with the sandbox off, the same write goes through without a question.
    writeFileSync(target, "reset");
    const second = await spawn({ home, cwd, args: OFF });
    const regranted = await runTool(second, "write", args);
    expect(regranted.events.filter((e) => e.type === "permission_request")).toEqual([]);
    expect(readFileSync(target, "utf8")).toBe("written");
    await second.close();

    writeFileSync(target, "reset");
    const confined = await spawn({ home, cwd, args: WORKSPACE_WRITE });
    const refused = await runTool(confined, "write", args);
    expectRefused(
      refused,
      `permission denied: The sandbox (workspace-write) refuses to write ${target}: only ${cwd} is writable.`,
    );
    expect(readFileSync(target, "utf8")).toBe("reset");
  });

  test("a write and an edit through a symlink in cwd that points outside are refused", async () => {
    const cwd = tempDir("cwd");
    const outside = tempDir("outside");
    writeFileSync(join(outside, "notes.txt"), "original\n");
    symlinkSync(outside, join(cwd, "out"));
    symlinkSync(join(outside, "notes.txt"), join(cwd, "notes-link.txt"));
    const agent = await spawn({ cwd, args: WORKSPACE_WRITE });

    const write = await runTool(agent, "write", { path: "out/planted.sh", content: "evil" });
    expectRefused(
      write,
      `The sandbox (workspace-write) refuses to write ${join(outside, "planted.sh")}: only ${cwd} is writable.`,
    );
    expect(existsSync(join(outside, "planted.sh"))).toBe(false);

    const edit = await runTool(agent, "edit", {
      path: "notes-link.txt",
      old_string: "original",
      new_string: "changed",
    });
    expectRefused(edit, `refuses to write ${join(outside, "notes.txt")}`);
    expect(readFileSync(join(outside, "notes.txt"), "utf8")).toBe("original\n");
  });

  test("read-only mode refuses a write inside cwd", async () => {
    const cwd = tempDir("cwd");
    const agent = await spawn({ cwd, args: READ_ONLY });
    const run = await runTool(agent, "write", { path: "a.txt", content: "x" });
    expectRefused(
      run,
      `The sandbox (read-only) refuses to write ${join(cwd, "a.txt")}: nothing is writable in read-only mode.`,
    );
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
  });
});

describe("reads of hidden paths (negative)", () => {
  test("~/.ssh/id_ed25519 is refused, directly and through a symlink in cwd", async () => {
    const user = fakeUserHome();
    const cwd = tempDir("cwd");
    symlinkSync(user.key, join(cwd, "key.txt"));
    const agent = await spawn({ cwd, args: WORKSPACE_WRITE, env: { HOME: user.home } });

    const direct = await runTool(agent, "read", { path: "~/.ssh/id_ed25519" });
    const hiddenMessage = `The sandbox (workspace-write) keeps ${user.key} from the agent: it is on the deny list`;
    expectRefused(direct, hiddenMessage);
    expect(direct.nextRequestBody).not.toContain(SECRET);

    const linked = await runTool(agent, "read", { path: "key.txt" });
    expectRefused(linked, hiddenMessage);
    expect(linked.nextRequestBody).not.toContain(SECRET);
  });

  test("~/.ssh made after the agent warmed up and judged a read is still refused: nothing is cached", async () => {
    const home = tempDir("user-home");
    const cwd = tempDir("cwd");
    writeFileSync(join(cwd, "notes.txt"), "notes\n");
    const agent = await spawn({ cwd, args: WORKSPACE_WRITE, env: { HOME: home } });
    // The first turn warms the gate up (a read question answered for nothing), then a read is judged.
    const allowed = await runTool(agent, "read", { path: "notes.txt" });
    expect(allowed.result.is_error).toBe(false);
    mkdirSync(join(home, ".ssh"), { mode: 0o700 });
    const key = join(home, ".ssh", "id_ed25519");
    writeFileSync(key, `${SECRET}\n`, { mode: 0o600 });

    const read = await runTool(agent, "read", { path: "~/.ssh/id_ed25519" });
    expectRefused(read, `The sandbox (workspace-write) keeps ${key} from the agent: it is on the deny list`);
    expect(read.nextRequestBody).not.toContain(SECRET);
  });

  test("$SHARD_HOME/models.json is refused", async () => {
    const agent = await spawn({ args: WORKSPACE_WRITE });
    const models = join(agent.home, "models.json");
    const run = await runTool(agent, "read", { path: models });
    expectRefused(
      run,
      `The sandbox (workspace-write) keeps ${models} from the agent: it is on the deny list`,
    );
    // The name of a provider only models.json holds.
    expect(run.nextRequestBody).not.toContain("mockresp");
  });

  test("a socket directory in /tmp made after the agent started is refused to read and write", async () => {
    const agent = await spawn({ args: WORKSPACE_WRITE });
    await runTool(agent, "read", { path: "~/.ssh/id_ed25519" }); // the agent has judged paths before
    // Named like tmux's per-user socket directory, in the real shared /tmp, after start-up.
    const socketDir = join("/tmp", `tmux-${process.pid}${Date.now()}`);
    mkdirSync(socketDir, { mode: 0o700 });
    try {
      const file = join(socketDir, "default");
      writeFileSync(file, SECRET);
      const read = await runTool(agent, "read", { path: file });
      expectRefused(read, `The sandbox (workspace-write) keeps ${file} from the agent`);
      expect(read.nextRequestBody).not.toContain(SECRET);

      const written = join(socketDir, "planted");
      const write = await runTool(agent, "write", { path: written, content: "x" });
      expectRefused(write, `The sandbox (workspace-write) keeps ${written} from the agent`);
      expect(existsSync(written)).toBe(false);
    } finally {
      rmSync(socketDir, { recursive: true, force: true });
    }
  });
});

/**
 * cwd holds a `secrets/` dir and a `.env` (both in sandbox.deny) and $SHARD_HOME itself; the
 * secret is in all three and nowhere else.
 */
function projectWithDeniedFiles(): { cwd: string; home: string } {
  const cwd = tempDir("cwd");
  const home = join(cwd, "shard-home");
  renameSync(mockHome(llm().url), home);
  writeFileSync(join(home, "config.json"), JSON.stringify({ sandbox: { deny: ["secrets", ".env"] } }));
  writeFileSync(join(home, "stash.txt"), `${SECRET}\n`);
  mkdirSync(join(cwd, "secrets"));
  writeFileSync(join(cwd, "secrets", "token.txt"), `${SECRET}\n`);
  writeFileSync(join(cwd, ".env"), `TOKEN=${SECRET}\n`);
  writeFileSync(join(cwd, "visible.txt"), "nothing to see\n");
  return { cwd, home };
}

/** A PATH without ripgrep, so the agent's grep and find use the built-in walk; bwrap is named directly. */
function pathWithoutRipgrep(): Record<string, string> {
  const bin = tempDir("bin");
  for (const tool of ["true", "git"]) {
    const found = Bun.which(tool);
    if (found) symlinkSync(found, join(bin, tool));
  }
  const bwrap = Bun.which("bwrap");
  if (!bwrap) throw new Error("bubblewrap is required by the sandbox tests");
  return { PATH: bin, SHARD_BWRAP: bwrap };
}

const backends = [
  { name: "ripgrep", env: (): Record<string, string> => ({}) },
  { name: "built-in", env: pathWithoutRipgrep },
];

describe.each(backends)("grep, find and ls leave hidden paths out ($name backend)", ({ name, env }) => {
  test.skipIf(name === "ripgrep" && Bun.which("rg") === null)(
    "a search of cwd finds nothing from secrets/, .env or $SHARD_HOME, and no listing names them",
    async () => {
      const { cwd, home } = projectWithDeniedFiles();
      const agent = await spawn({ cwd, home, args: WORKSPACE_WRITE, env: env() });

      const grep = await runTool(agent, "grep", { pattern: SECRET });
      expect(grep.result.is_error).toBe(false);
      expect(resultText(grep)).toStartWith(`No matches for "${SECRET}" in the working directory.`);
      expect(resultText(grep)).toContain("[Paths the sandbox hides");
      // The model saw no line of any hidden file (the pattern itself is in its own tool call).
      expect(grep.nextRequestBody).not.toContain(`TOKEN=${SECRET}`);
      expect(grep.nextRequestBody).not.toContain("token.txt");

      const find = await runTool(agent, "find", { pattern: "*" });
      expect(find.result.is_error).toBe(false);
      const found = resultText(find).split("\n\n")[0]?.split("\n");
      expect(found).toEqual(["visible.txt"]);

      const ls = await runTool(agent, "ls", {});
      expect(resultText(ls).split("\n\n")[0]?.split("\n")).toEqual(["visible.txt"]);

      const grepInside = await runTool(agent, "grep", { pattern: SECRET, path: "secrets" });
      expectRefused(grepInside, `keeps ${join(cwd, "secrets")} from the agent`);
      const lsInside = await runTool(agent, "ls", { path: "shard-home" });
      expectRefused(lsInside, `keeps ${home} from the agent`);
      const readEnv = await runTool(agent, "read", { path: ".env" });
      expectRefused(readEnv, `keeps ${join(cwd, ".env")} from the agent`);
      for (const run of [grepInside, lsInside, readEnv]) expect(run.nextRequestBody).not.toContain(`TOKEN=`);
    },
  );
});

describe("controls: the same calls with the sandbox off reach the person", () => {
  test("a write outside cwd asks, and is done when allowed", async () => {
    const cwd = tempDir("cwd");
    const target = join(tempDir("outside"), "out.txt");
    const agent = await spawn({ cwd, args: OFF });
    let asked: Msg | undefined;
    const run = await runTool(agent, "write", { path: target, content: "allowed" }, (request) => {
      asked = request;
      return "allow_once";
    });
    expect(asked?.prompt).toBe(`Allow write outside the working directory: ${target}?`);
    expect(run.result.is_error).toBe(false);
    expect(readFileSync(target, "utf8")).toBe("allowed");
  });

  test("reads of ~/.ssh and $SHARD_HOME ask (and a denial keeps them out)", async () => {
    const user = fakeUserHome();
    const agent = await spawn({ args: OFF, env: { HOME: user.home } });
    const prompts: string[] = [];
    const deny = (request: Msg) => {
      prompts.push(request.prompt);
      return "deny";
    };
    const key = await runTool(agent, "read", { path: "~/.ssh/id_ed25519" }, deny);
    const models = await runTool(agent, "read", { path: join(agent.home, "models.json") }, deny);
    expect(prompts).toEqual([
      `Allow read outside the working directory: ${user.key}?`,
      `Allow read outside the working directory: ${join(agent.home, "models.json")}?`,
    ]);
    for (const run of [key, models]) expect(run.result.is_error).toBe(true);
  });

  test("a search of cwd finds the denied files' content: the fixture the negative test relies on", async () => {
    const { cwd, home } = projectWithDeniedFiles();
    const agent = await spawn({ cwd, home, args: OFF });
    const grep = await runTool(agent, "grep", { pattern: SECRET });
    const lines = resultText(grep).split("\n");
    // (The session log in $SHARD_HOME matches too: it holds this very tool call.)
    for (const line of [
      `.env:1: TOKEN=${SECRET}`,
      `secrets/token.txt:1: ${SECRET}`,
      `shard-home/stash.txt:1: ${SECRET}`,
    ])
      expect(lines).toContain(line);
  });
});
