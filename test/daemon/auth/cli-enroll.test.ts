/**
 * The enrollment flow on the command line: `shard daemon` prints the one-time URL when no
 * browser is enrolled; `shard auth enroll | list [--json] | revoke <id>` over the unix socket.
 * No code, cookie or ticket is ever written under $SHARD_HOME (store, logs, records).
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { SHARD_MAIN, tempDir } from "../../agent/support/agent-process.ts";
import { SCRIPT, shard, shardOnTerminal } from "../../cli/support/shard-cli.ts";
import { CHILD_ENV } from "../../support/child-env.ts";
import { decodeTerminalQr } from "../../support/terminal-qr.ts";
import { DaemonProcess } from "../support/daemon-harness.ts";
import { codeOf } from "./auth-daemon.ts";
import { rawRequest, upgradeHeaders } from "./raw-http.ts";

/**
 * Each test runs several `shard` processes one after another. Bun 1.4.5 applies the suite's
 * 30 s default (test/support/test-timeout.ts) to the first test file only, so say it here.
 */
const CLI_TEST_TIMEOUT_MS = 60_000;

/** `shard ARGS` on the daemon's SHARD_HOME. */
const shardOn = (home: string, args: string[]) => shard(args, { HOME: home, SHARD_HOME: home });

/** Every regular file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return filesUnder(path);
    return e.isFile() ? [path] : [];
  });
}

test(
  "enroll from the printed URL, list, revoke; no secret ever reaches a file under SHARD_HOME",
  async () => {
    const home = tempDir("home");
    const daemon = new DaemonProcess(home);
    const url = await daemon.url();
    const port = Number(new URL(url).port);
    const control = await daemon.client();
    await control.ok({ type: "agent.list" });
    const lines = daemon.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(url);
    expect(lines[1]).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/#enroll=[A-Za-z0-9_-]{43}$`));
    const printedCode = codeOf(lines[1] ?? "");

    const headers = { Host: `127.0.0.1:${port}`, Origin: url, "Content-Type": "application/json" };
    const enrolled = await rawRequest(port, {
      method: "POST",
      path: "/enroll",
      headers,
      body: JSON.stringify({ code: printedCode, label: "test browser" }),
    });
    expect(enrolled.status).toBe(200);
    const cookie = (enrolled.header("set-cookie") ?? "").split(";")[0] ?? "";
    const browserId = JSON.parse(enrolled.body).browser_id;
    const bootstrap = () =>
      rawRequest(port, {
        method: "POST",
        path: "/bootstrap",
        headers: { ...headers, Cookie: cookie },
        body: "",
      });
    const usedTicket = JSON.parse((await bootstrap()).body).ticket;
    const upgraded = await rawRequest(port, {
      path: "/ws",
      headers: upgradeHeaders(`127.0.0.1:${port}`, url, `shard.v1, shard.ticket.${usedTicket}`),
    });
    expect(upgraded.status).toBe(101);
    const unusedTicket = JSON.parse((await bootstrap()).body).ticket;

    const minted = await shardOn(home, ["auth", "enroll"]);
    expect(minted.code).toBe(0);
    expect(minted.stdout).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:${port}/#enroll=[A-Za-z0-9_-]{43}\\n$`),
    );
    const mintedCode = codeOf(minted.stdout.trim());

    const listed = await shardOn(home, ["auth", "list", "--json"]);
    expect(listed.code).toBe(0);
    const browsers = JSON.parse(listed.stdout);
    expect(browsers).toHaveLength(1);
    expect(Object.keys(browsers[0]).sort()).toEqual(["created_at", "id", "label", "last_seen_at"]);
    expect(browsers[0]).toMatchObject({ id: browserId, label: "test browser" });
    const text = await shardOn(home, ["auth", "list"]);
    expect(text.stdout).toContain(browserId);

    // The daemon restarts: a browser is enrolled, so no enrollment URL this time.
    await control.ok({ type: "daemon.shutdown" });
    expect(await daemon.exited).toBe(0);
    const again = new DaemonProcess(home);
    const url2 = await again.url();
    const control2 = await again.client();
    await control2.ok({ type: "agent.list" });
    expect(again.stdout.trim()).toBe(url2);
    // The session survived the restart (it is in the store, as a hash).
    const port2 = Number(new URL(url2).port);
    const after = await rawRequest(port2, {
      method: "POST",
      path: "/bootstrap",
      headers: { Host: `127.0.0.1:${port2}`, Origin: url2, Cookie: cookie },
      body: "",
    });
    expect(after.status).toBe(200);
    const restartTicket = JSON.parse(after.body).ticket;

    const revoked = await shardOn(home, ["auth", "revoke", browserId]);
    expect(revoked.code).toBe(0);
    expect(JSON.parse((await shardOn(home, ["auth", "list", "--json"])).stdout)).toEqual([]);
    const twice = await shardOn(home, ["auth", "revoke", browserId]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain("shard auth list");

    await control2.ok({ type: "daemon.shutdown" });
    expect(await again.exited).toBe(0);

    const token = cookie.split("=")[1] ?? "";
    const secrets = { printedCode, mintedCode, token, usedTicket, unusedTicket, restartTicket };
    for (const value of Object.values(secrets)) expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const files = filesUnder(home);
    expect(files.some((f) => f.endsWith(join("security", "browsers.json")))).toBe(true);
    expect(files.some((f) => f.endsWith(join("logs", "daemon.log")))).toBe(true);
    for (const file of files) {
      const content = readFileSync(file, "latin1");
      for (const [name, value] of Object.entries(secrets)) {
        if (content.includes(value)) throw new Error(`${name} found in ${file}`);
      }
    }
    expect(statSync(join(home, "security")).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, "security", "browsers.json")).mode & 0o777).toBe(0o600);
  },
  CLI_TEST_TIMEOUT_MS,
);

test(
  "shard auth without a daemon, and with bad arguments",
  async () => {
    const home = tempDir("home");
    const none = await shardOn(home, ["auth", "enroll"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("no daemon is running");
    expect(none.stderr).toContain("shard daemon");
    for (const args of [
      ["auth"],
      ["auth", "frob"],
      ["auth", "revoke"],
      ["auth", "enroll", "--json"],
      ["auth", "list", "x"],
    ]) {
      const bad = await shardOn(home, args);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("shard auth --help");
    }
  },
  CLI_TEST_TIMEOUT_MS,
);

test(
  "plain `shard` (the daemon) prints the enrollment URL too",
  async () => {
    const home = tempDir("home");
    const daemon = new DaemonProcess(home, ["--port", "0"], []);
    const url = await daemon.url();
    const control = await daemon.client();
    await control.ok({ type: "agent.list" });
    expect(daemon.stdout).toMatch(new RegExp(`^${url}\\n${url}/#enroll=[A-Za-z0-9_-]{43}\\n$`));
    await control.ok({ type: "daemon.shutdown" });
    expect(await daemon.exited).toBe(0);
  },
  CLI_TEST_TIMEOUT_MS,
);

test.skipIf(SCRIPT === null)(
  "on a terminal, shard auth enroll also prints the link as a QR code that decodes to it; piped, the link alone",
  async () => {
    const home = tempDir("home");
    const daemon = new DaemonProcess(home);
    await daemon.url();
    try {
      const piped = await shardOn(home, ["auth", "enroll"]);
      expect(piped.stdout.trim().split("\n")).toHaveLength(1);
      expect(decodeTerminalQr(piped.stdout)).toBeNull();

      const onTerminal = await shardOnTerminal(["auth", "enroll"], { HOME: home, SHARD_HOME: home });
      expect(onTerminal.code).toBe(0);
      const link = onTerminal.stdout.split(/\r?\n/)[0] ?? "";
      expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#enroll=[A-Za-z0-9_-]{43}$/);
      expect(decodeTerminalQr(onTerminal.stdout)).toBe(link);
    } finally {
      await daemon.stop();
    }
  },
  CLI_TEST_TIMEOUT_MS,
);

test(
  "on a terminal, shard daemon prints the first enrollment link and its QR code",
  async () => {
    const home = tempDir("home");
    const utf8 = new TextDecoder();
    let screen = "";
    let seen: () => void = () => {};
    const printed = new Promise<void>((resolve) => {
      seen = resolve;
    });
    const proc = Bun.spawn([process.execPath, SHARD_MAIN, "daemon", "--port", "0"], {
      env: { ...CHILD_ENV, HOME: home, SHARD_HOME: home },
      terminal: {
        cols: 120,
        rows: 60,
        data: (_terminal, bytes) => {
          screen += utf8.decode(bytes, { stream: true });
          if (decodeTerminalQr(screen) !== null) seen();
        },
      },
    });
    try {
      await printed;
      const link = screen.split(/\r?\n/).find((line) => line.includes("#enroll=")) ?? "";
      expect(decodeTerminalQr(screen)).toBe(link.trim());
    } finally {
      proc.kill("SIGTERM");
      await proc.exited;
      proc.terminal?.close();
    }
  },
  CLI_TEST_TIMEOUT_MS,
);
