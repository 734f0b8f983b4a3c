/**
 * The remote command an ssh placement sends (src/placements/placement-argv.ts) goes through the
 * far side's shell: every word arrives as itself, and nothing in a cwd, a flag or an env value
 * runs (security: negative test against a real `sh`).
 */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { remoteCommand, sshArgv } from "../../src/placements/placement-argv.ts";
import type { SshPlacement } from "../../src/placements/placement-config.ts";
import { tempDir } from "../agent/support/agent-process.ts";

test("quoted words reach the program unchanged and run nothing; ~/ still means the remote home", () => {
  const dir = tempDir("quote");
  const marker = join(dir, "ran");
  const hostile = `/tmp/a'; touch ${marker}; '$(touch ${marker})\`touch ${marker}\` "x" \\ ~`;
  const placement: SshPlacement = {
    kind: "ssh",
    host: "example.com",
    shard: "/bin/echo",
    env: { SHARD_X: `$(touch ${marker})'` },
  };
  const command = remoteCommand(placement, ["agent", "--cwd", hostile]);
  const out = Bun.spawnSync(["sh", "-c", command], {
    env: { PATH: "/usr/bin:/bin" },
  });
  expect(out.stdout.toString()).toBe(`agent --cwd ${hostile}\n`);
  expect(existsSync(marker)).toBe(false);
  const home = Bun.spawnSync(
    [
      "sh",
      "-c",
      remoteCommand({ kind: "ssh", host: "h", shard: "~/bin/x" }, []).replace("exec env ", "echo "),
    ],
    {
      env: { HOME: "/home/someone", PATH: "/usr/bin:/bin" },
    },
  );
  expect(home.stdout.toString()).toBe("/home/someone/bin/x\n");
});

test("ssh gets BatchMode, no tty, no forwarding, and -- before the host", () => {
  const argv = sshArgv({ kind: "ssh", host: "build", user: "dev", port: 2222 }, "cmd");
  expect(argv.slice(0, 2)).toEqual(["ssh", "-T"]);
  expect(argv).toContain("BatchMode=yes");
  expect(argv).toContain("ClearAllForwardings=yes");
  expect(argv.slice(-7)).toEqual(["-p", "2222", "-l", "dev", "--", "build", "cmd"]);
});
