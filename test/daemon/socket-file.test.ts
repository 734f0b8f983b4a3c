/**
 * `$SHARD_HOME/daemon.sock` safety (docs/protocol.md §3.3): 0600 in a 0700 home even under umask
 * 000; a symlink, a regular file or another user's file at the path is refused and left untouched;
 * a stale socket of our own is replaced. Negative tests first.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { type RunningDaemon, startDaemon } from "../../src/daemon/daemon.ts";
import { SHARD_MAIN, tempDir } from "../agent/support/agent-process.ts";
import { DaemonClient } from "./support/daemon-client.ts";
import { runtimeEnv } from "./support/daemon-harness.ts";

setDefaultTimeout(30_000);

let running: RunningDaemon | undefined;
afterEach(async () => {
  await running?.stop(true);
  running = undefined;
});

async function start(home: string) {
  const started = await startDaemon({ home, port: 0, env: runtimeEnv(home) });
  if (started.ok) running = started.daemon;
  return started;
}

/** A socket file with nobody listening: what a daemon that died leaves behind. */
async function staleSocket(path: string): Promise<void> {
  const proc = Bun.spawn([
    "python3",
    "-c",
    `import socket; socket.socket(socket.AF_UNIX).bind(${JSON.stringify(path)})`,
  ]);
  expect(await proc.exited).toBe(0);
  expect(lstatSync(path).isSocket()).toBe(true);
}

describe("refused and left untouched", () => {
  test("a symlink at the socket path", async () => {
    const home = tempDir("home");
    const target = join(tempDir("elsewhere"), "victim");
    writeFileSync(target, "keep me");
    symlinkSync(target, join(home, "daemon.sock"));
    const started = await start(home);
    expect(started.ok).toBe(false);
    if (!started.ok) expect(started.message).toContain("symbolic link");
    expect(readlinkSync(join(home, "daemon.sock"))).toBe(target);
    expect(readFileSync(target, "utf8")).toBe("keep me");
  });

  test("a regular file at the socket path", async () => {
    const home = tempDir("home");
    writeFileSync(join(home, "daemon.sock"), "not a socket");
    const started = await start(home);
    expect(started.ok).toBe(false);
    if (!started.ok) expect(started.message).toContain("regular file");
    expect(readFileSync(join(home, "daemon.sock"), "utf8")).toBe("not a socket");
  });

  test("another user's socket at the socket path", async () => {
    const home = tempDir("home");
    const path = join(home, "daemon.sock");
    await staleSocket(path);
    chownSync(path, 65534, 65534);
    const started = await start(home);
    expect(started.ok).toBe(false);
    if (!started.ok) expect(started.message).toContain("another user (uid 65534)");
    const st = lstatSync(path);
    expect(st.isSocket()).toBe(true);
    expect(st.uid).toBe(65534);
  });
});

describe("accepted", () => {
  test("a stale socket of a dead daemon is replaced by a live one", async () => {
    const home = tempDir("home");
    const path = join(home, "daemon.sock");
    await staleSocket(path);
    await expect(DaemonClient.unix(path)).rejects.toThrow();
    const started = await start(home);
    expect(started.ok).toBe(true);
    const client = await DaemonClient.unix(path);
    expect(client.messages[0]?.type).toBe("hello");
    client.close();
  });

  test("under umask 000 the home is 0700 and the socket 0600, also for a home that was 0777", async () => {
    for (const preexisting of [false, true]) {
      const home = join(tempDir("parent"), "home");
      if (preexisting) {
        mkdirSync(home);
        chmodSync(home, 0o777);
      }
      const proc = Bun.spawn(
        ["sh", "-c", `umask 000; exec "${process.execPath}" "${SHARD_MAIN}" daemon --port 0`],
        { stdout: "pipe", stderr: "pipe", env: runtimeEnv(home) },
      );
      const reader = proc.stdout.getReader();
      const { value } = await reader.read();
      expect(new TextDecoder().decode(value)).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
      expect(statSync(home).mode & 0o777).toBe(0o700);
      expect(lstatSync(join(home, "daemon.sock")).mode & 0o777).toBe(0o600);
      const client = await DaemonClient.unix(join(home, "daemon.sock"));
      await client.ok({ type: "daemon.shutdown" });
      expect(await proc.exited).toBe(0);
    }
  });
});
