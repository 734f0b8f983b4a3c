/**
 * The remote command an ssh placement sends (src/placements/placement-argv.ts) goes through the
 * far side's shell: every word arrives as itself, and nothing in a cwd, a flag or an env value
 * runs (security: negative test against a real `sh`).
 */
import { expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
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

test("with a subagent link: hostile words still arrive as themselves through sh -c, the runtime learns its socket, the exit status is kept and the link's directory goes", () => {
  const dir = tempDir("quote-link");
  const marker = join(dir, "ran");
  const linkDir = join(dir, "shard-link.abc");
  mkdirSync(linkDir);
  const hostile = `/tmp/a'; touch ${marker}; '$(touch ${marker})\`touch ${marker}\` "x" \\ ~`;
  const script = join(dir, "runtime");
  writeFileSync(script, '#!/bin/sh\necho "$SHARD_AGENT_ID $SHARD_DAEMON_SOCKET $*"\nexit 7\n');
  chmodSync(script, 0o755);
  const link = {
    agentId: "agent_1",
    localSocket: "/home/d/.shard/run/links/x.sock",
    remoteDir: linkDir,
    remoteSocket: `${linkDir}/daemon.sock`,
  };
  const placement: SshPlacement = { kind: "ssh", host: "example.com", shard: script };
  const out = Bun.spawnSync(["sh", "-c", remoteCommand(placement, ["agent", "--cwd", hostile], link)], {
    env: { PATH: "/usr/bin:/bin" },
  });
  expect(out.stdout.toString()).toBe(`agent_1 ${linkDir}/daemon.sock agent --cwd ${hostile}\n`);
  expect(out.exitCode).toBe(7);
  expect(existsSync(marker)).toBe(false);
  expect(existsSync(linkDir)).toBe(false);
  const argv = sshArgv(placement, "cmd", link);
  expect(argv).not.toContain("ClearAllForwardings=yes");
  expect(argv).toContain("StreamLocalBindUnlink=yes");
  expect(argv.slice(argv.indexOf("-R"), argv.indexOf("-R") + 2)).toEqual([
    "-R",
    `${linkDir}/daemon.sock:/home/d/.shard/run/links/x.sock`,
  ]);
});
