/** `shard daemon` flags: bad values are usage errors (exit 2) that say what to do. */
import { expect, test } from "bun:test";
import { shard } from "../cli/support/shard-cli.ts";

const run = (args: string[]) => shard(["daemon", ...args]);

test("a bad --port, --idle-runtime-timeout, --headless-timeout or --max-subagent-runs is a usage error", async () => {
  for (const args of [
    ["--port", "abc"],
    ["--port", "70000"],
    ["--idle-runtime-timeout", "-1"],
    ["--headless-timeout", "0"],
    ["--headless-timeout", "soon"],
    ["--max-subagent-runs", "0"],
    ["--max-subagent-runs", "65"],
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
});
