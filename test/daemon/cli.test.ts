/** `shard daemon` flags: bad values are usage errors (exit 2) that say what to do. */
import { expect, test } from "bun:test";
import { shard } from "../cli/support/shard-cli.ts";

const run = (args: string[]) => shard(["daemon", ...args]);

test("a bad --port, --idle-runtime-timeout, --headless-timeout, --max-subagent-runs or --max-runtimes is a usage error", async () => {
  for (const args of [
    ["--port", "abc"],
    ["--port", "70000"],
    ["--idle-runtime-timeout", "-1"],
    ["--headless-timeout", "0"],
    ["--headless-timeout", "soon"],
    ["--max-subagent-runs", "0"],
    ["--max-subagent-runs", "65"],
    ["--max-runtimes", "1"],
    ["--max-runtimes", "1025"],
    ["--max-runtimes", "many"],
    ["--nope"],
  ]) {
    const { code, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stderr).toContain("shard daemon:");
    expect(stderr).toContain("shard daemon --help");
  }
});

test("--help describes the flags", async () => {
  const { code, stdout } = await run(["--help"]);
  expect(code).toBe(0);
  expect(stdout).toContain("--port N");
  expect(stdout).toContain("--idle-runtime-timeout SECONDS");
  expect(stdout).toContain("--headless-timeout SECONDS");
  expect(stdout).toContain("--max-subagent-runs N");
  expect(stdout).toContain("--max-runtimes N");
});

test("subagent runs count toward --max-runtimes: a run cap that would fill it is refused", async () => {
  const { code, stderr } = await run(["--max-runtimes", "4", "--max-subagent-runs", "4"]);
  expect(code).toBe(2);
  expect(stderr).toContain("--max-subagent-runs (4) must be below --max-runtimes (4)");
});
