/**
 * Usage errors as a user meets them, in real `shard` processes: every one exits 2 and prints
 * one line that names the problem plus where the help is, never the whole help. Values that
 * only the runtime can check (a mode, model or tool that does not exist, a missing directory
 * or session) count as usage errors too when they came from the command line.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { tempDir } from "../agent/support/agent-process.ts";
import { SCRIPT, shard, shardOnTerminal } from "./support/shard-cli.ts";

setDefaultTimeout(60_000);

const missingDir = join(tempDir("gone"), "no-such-dir");

/** The two lines of a usage error of `shard <command>`; the first must contain `problem`. */
function expectUsageError(stderr: string, command: string, problem: string): void {
  const name = command === "" ? "shard" : `shard ${command}`;
  const lines = stderr.split("\n");
  expect(lines).toHaveLength(3); // two lines, each ending in "\n"
  expect(lines[0]!.startsWith(`${name}: `)).toBe(true);
  expect(lines[0]).toContain(problem);
  expect(lines[1]).toBe(`see \`${name} --help\``);
  expect(lines[2]).toBe("");
}

const cases: { args: string[]; problem: string }[] = [
  { args: ["frobnicate"], problem: 'unknown command "frobnicate"' },
  { args: ["--bogus"], problem: 'unknown option "--bogus"' },
  // An inherited property name is not a command either (it used to crash).
  { args: ["toString"], problem: 'unknown command "toString"' },
  { args: ["run", "--bogus", "hi"], problem: "--bogus" },
  { args: ["run", "--mode", "nope", "hi"], problem: '--mode: unknown mode "nope"' },
  { args: ["run", "--tools", "nope", "hi"], problem: "--tools: Unknown tool: nope" },
  {
    args: ["run", "--cwd", missingDir, "hi"],
    problem: `--cwd: working directory ${missingDir} does not exist`,
  },
  { args: ["run", "--model", "nope/x", "hi"], problem: '--model: unknown model "nope/x"' },
  { args: ["run", "--session", "ses_missing", "hi"], problem: "--session: no session ses_missing" },
  // The headless policy is a daemon agent's (agent.create headless_policy): a direct agent always
  // has its one client to ask, so the flag is gone rather than accepted and ignored.
  { args: ["run", "--headless-policy", "deny", "hi"], problem: "--headless-policy" },
  {
    args: ["run", "--allow", "nope", "hi"],
    problem: "--allow: unknown tool nope. Tools: read, write, edit, bash",
  },
  {
    args: ["run", "--tools", "read", "--allow", "write", "hi"],
    problem: "--allow: unknown tool write. Tools: read",
  },
  { args: ["run", "--allow", ",", "hi"], problem: "--allow needs a tool name" },
  { args: ["run", "--allow"], problem: "--allow" },
  // The prompt written where the tool list belongs is refused, never run as a tool list or dropped.
  {
    args: ["run", "--allow", "list the files"],
    problem: '--allow takes tool names separated by commas, not "list the files"',
  },
  { args: ["run"], problem: "a prompt is required" },
  { args: ["run", "-", "and more"], problem: "cannot be combined with a prompt argument" },
  { args: ["agent", "--bogus"], problem: "--bogus" },
  { args: ["agent", "--headless-policy", "queue"], problem: "--headless-policy" },
  { args: ["agent", "extra"], problem: "extra" },
  { args: ["agent", "--mode", "nope"], problem: '--mode: unknown mode "nope"' },
  { args: ["agent", "--tools", "nope"], problem: "--tools: Unknown tool: nope" },
  { args: ["agent", "--cwd", missingDir], problem: "--cwd: working directory" },
  { args: ["agent", "--session", "ses_missing"], problem: "--session: no session ses_missing" },
];

describe("a usage error exits 2 with one line and a pointer to the help", () => {
  for (const { args, problem } of cases) {
    test(`shard ${args.join(" ")}`, async () => {
      const cwd = tempDir("cwd");
      // Every case but --cwd's runs in a real directory, so only the named problem is wrong.
      const withCwd =
        (args[0] === "run" || args[0] === "agent") && !args.includes("--cwd") && !args.includes("--bogus")
          ? [args[0], "--cwd", cwd, ...args.slice(1)]
          : args;
      const res = await shard(withCwd);
      expect(res.code).toBe(2);
      const command = args[0] === "run" || args[0] === "agent" ? args[0] : "";
      expectUsageError(res.stderr, command, problem);
      expect(res.stderr).not.toContain("Options:");
      // `shard agent` still tells a protocol client why it stopped; nothing else goes to stdout.
      if (command !== "agent") expect(res.stdout).toBe("");
    });
  }

  test("`shard agent` reports a refused flag value as a fatal error event on stdout too", async () => {
    const res = await shard(["agent", "--mode", "nope", "--cwd", tempDir("cwd")]);
    expect(res.code).toBe(2);
    const events = res.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events).toEqual([
      { type: "error", code: "NOT_FOUND", message: expect.stringContaining("nope"), fatal: true },
    ]);
  });

  test.skipIf(SCRIPT === null)(
    "`shard run` with a terminal on stdin and no prompt is a usage error, not a wait",
    async () => {
      const res = await shardOnTerminal(["run", "--cwd", tempDir("cwd")]);
      expect(res.code).toBe(2);
      expect(res.stdout).toContain("shard run: a prompt is required");
      expect(res.stdout).toContain("see `shard run --help`");
    },
  );

  test("`shard help run` prints the help of `shard run`", async () => {
    const res = await shard(["help", "run"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toStartWith("Usage: shard run");
  });
});
