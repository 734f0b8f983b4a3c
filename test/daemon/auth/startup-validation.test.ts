/**
 * Remote-mode start-up validation (docs/protocol.md §3.2): every unsafe or incomplete combination
 * of the flags is refused with a message naming the flag to add or remove; `shard daemon` exits
 * 2 on it without listening. The valid configurations, and the plaintext-cookie warning.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type RemoteFlags, webConfigFromFlags } from "../../../src/daemon/http/web-config.ts";
import { SHARD_MAIN, tempDir } from "../../agent/support/agent-process.ts";
import { shard } from "../../cli/support/shard-cli.ts";
import { CHILD_ENV } from "../../support/child-env.ts";
import { DaemonProcess } from "../support/daemon-harness.ts";

const flags = (f: Partial<RemoteFlags>): RemoteFlags => ({
  allowedOrigins: [],
  allowInsecureRemote: false,
  ...f,
});
const DIRECT = {
  webHost: "192.0.2.10",
  publicHost: "192.0.2.10:7777",
  allowedOrigins: ["http://192.0.2.10:7777"],
};
const PROXY = {
  trustProxy: "loopback",
  publicHost: "shard.example.com",
  allowedOrigins: ["https://shard.example.com"],
};

const refused: [string, Partial<RemoteFlags>, string][] = [
  ["--web-host that is not an IP", { webHost: "example.com" }, "--web-host"],
  ["--trust-proxy that is not loopback or an IP", { ...PROXY, trustProxy: "proxy.local" }, "--trust-proxy"],
  ["--public-host without remote mode", { publicHost: "a.example:1" }, "--public-host"],
  ["--allowed-origin without remote mode", { allowedOrigins: ["https://a.example"] }, "--allowed-origin"],
  ["--allow-insecure-remote without remote mode", { allowInsecureRemote: true }, "--allow-insecure-remote"],
  ["a loopback alias as --web-host", { webHost: "::1" }, "--web-host"],
  [
    "direct mode without --public-host",
    { ...DIRECT, publicHost: undefined, allowInsecureRemote: true },
    "--public-host",
  ],
  [
    "direct mode without --allowed-origin",
    { ...DIRECT, allowedOrigins: [], allowInsecureRemote: true },
    "--allowed-origin",
  ],
  ["direct mode without --allow-insecure-remote", DIRECT, "--allow-insecure-remote"],
  [
    "direct mode with an https origin",
    { ...DIRECT, allowedOrigins: ["https://192.0.2.10:7777"], allowInsecureRemote: true },
    "--trust-proxy",
  ],
  ["proxy mode without --public-host", { ...PROXY, publicHost: undefined }, "--public-host"],
  ["proxy mode without --allowed-origin", { ...PROXY, allowedOrigins: [] }, "--allowed-origin"],
  [
    "proxy mode with a plaintext origin, no --allow-insecure-remote",
    { ...PROXY, allowedOrigins: ["http://shard.lan:8080"] },
    "--allow-insecure-remote",
  ],
  [
    "--allow-insecure-remote with only https origins",
    { ...PROXY, allowInsecureRemote: true },
    "--allow-insecure-remote",
  ],
  ["--public-host with a scheme", { ...PROXY, publicHost: "https://shard.example.com" }, "--public-host"],
  ["--public-host with a path", { ...PROXY, publicHost: "shard.example.com/x" }, "--public-host"],
  ["--public-host in upper case", { ...PROXY, publicHost: "Shard.example.com" }, "--public-host"],
  [
    "an origin with a trailing slash",
    { ...PROXY, allowedOrigins: ["https://shard.example.com/"] },
    "--allowed-origin",
  ],
  [
    "an origin with a path",
    { ...PROXY, allowedOrigins: ["https://shard.example.com/app"] },
    "--allowed-origin",
  ],
  [
    "an origin spelling its default port",
    { ...PROXY, allowedOrigins: ["https://shard.example.com:443"] },
    "--allowed-origin",
  ],
  ["an origin that is null", { ...PROXY, allowedOrigins: ["null"] }, "--allowed-origin"],
  [
    "an origin of another scheme",
    { ...PROXY, allowedOrigins: ["ftp://shard.example.com"] },
    "--allowed-origin",
  ],
  ["--forwarded-proto-header without --trust-proxy", { forwardedProtoHeader: "X-Scheme" }, "--trust-proxy"],
  [
    "--forwarded-host-header without --trust-proxy",
    { ...DIRECT, allowInsecureRemote: true, forwardedHostHeader: "X-Host" },
    "--trust-proxy",
  ],
  ["a forwarded header that is Host", { ...PROXY, forwardedHostHeader: "Host" }, "--forwarded-host-header"],
  [
    "a forwarded header that is X-Forwarded-For",
    { ...PROXY, forwardedProtoHeader: "X-Forwarded-For" },
    "--forwarded-proto-header",
  ],
  [
    "a forwarded header name with a space",
    { ...PROXY, forwardedProtoHeader: "X Scheme" },
    "--forwarded-proto-header",
  ],
  [
    "both forwarded headers under one name",
    { ...PROXY, forwardedProtoHeader: "X-Fwd", forwardedHostHeader: "x-fwd" },
    "two different headers",
  ],
];

describe("webConfigFromFlags", () => {
  for (const [what, given, flag] of refused) {
    test(`refuses ${what}, naming ${flag}`, () => {
      const result = webConfigFromFlags(flags(given));
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).toContain(flag);
    });
  }

  test("no flag (or --web-host 127.0.0.1) is loopback mode", () => {
    expect(webConfigFromFlags(flags({}))).toEqual({ ok: true, config: { mode: "loopback" } });
    expect(webConfigFromFlags(flags({ webHost: "127.0.0.1" }))).toEqual({
      ok: true,
      config: { mode: "loopback" },
    });
  });

  test("direct non-loopback needs all four flags", () => {
    const result = webConfigFromFlags(flags({ ...DIRECT, allowInsecureRemote: true }));
    expect(result).toMatchObject({
      ok: true,
      config: { mode: "direct", bindHost: "192.0.2.10", publicHost: "192.0.2.10:7777" },
    });
  });

  test("renamed forwarded headers are kept in lower case, the other keeps its default", () => {
    expect(webConfigFromFlags(flags({ ...PROXY, forwardedProtoHeader: "X-Scheme" }))).toMatchObject({
      ok: true,
      config: { forwardedHeaders: { proto: "x-scheme", host: "x-forwarded-host" } },
    });
  });

  test("a TLS proxy needs --trust-proxy, --public-host and --allowed-origin; it binds loopback unless told", () => {
    expect(webConfigFromFlags(flags(PROXY))).toMatchObject({
      ok: true,
      config: { mode: "proxy", bindHost: "127.0.0.1" },
    });
    const plaintext = flags({
      ...PROXY,
      allowedOrigins: ["http://shard.lan:8080"],
      allowInsecureRemote: true,
    });
    expect(webConfigFromFlags(plaintext)).toMatchObject({
      ok: true,
      config: { mode: "proxy", allowInsecureRemote: true },
    });
  });
});

async function runDaemon(args: string[], home = tempDir("home")) {
  const ran = await shard(["daemon", "--port", "0", ...args], { HOME: home, SHARD_HOME: home });
  return { ...ran, home };
}

/** These tests start `shard` processes; Bun 1.4.5 gives files after the first a 5 s default. */
const PROCESS_TEST_TIMEOUT_MS = 30_000;

/** The command-line form of `flags`, as a user types it. */
function argv(f: Partial<RemoteFlags>): string[] {
  const out: string[] = [];
  if (f.webHost !== undefined) out.push("--web-host", f.webHost);
  if (f.publicHost !== undefined) out.push("--public-host", f.publicHost);
  for (const origin of f.allowedOrigins ?? []) out.push("--allowed-origin", origin);
  if (f.allowInsecureRemote) out.push("--allow-insecure-remote");
  if (f.trustProxy !== undefined) out.push("--trust-proxy", f.trustProxy);
  if (f.forwardedProtoHeader !== undefined) out.push("--forwarded-proto-header", f.forwardedProtoHeader);
  if (f.forwardedHostHeader !== undefined) out.push("--forwarded-host-header", f.forwardedHostHeader);
  return out;
}

describe("shard daemon", () => {
  test(
    "every refused combination, typed on the command line, exits 2 naming the flag, before listening",
    async () => {
      const ran = await Promise.all(
        refused.map(async ([what, given, flag]) => ({ what, flag, ...(await runDaemon(argv(given))) })),
      );
      for (const { what, flag, code, stderr, stdout, home } of ran) {
        if (code !== 2 || !stderr.includes(flag)) throw new Error(`${what}: exit ${code}, stderr ${stderr}`);
        expect(stdout).toBe("");
        expect(existsSync(join(home, "daemon.sock"))).toBe(false);
      }
    },
    4 * PROCESS_TEST_TIMEOUT_MS,
  );

  test(
    "plain `shard` with a remote flag is the daemon, and validates it the same way",
    async () => {
      const home = tempDir("home");
      const proc = Bun.spawn(
        [
          process.execPath,
          SHARD_MAIN,
          "--web-host",
          "192.0.2.10",
          "--public-host",
          "192.0.2.10:7777",
          "--port",
          "0",
        ],
        {
          stdout: "pipe",
          stderr: "pipe",
          env: { ...CHILD_ENV, HOME: home, SHARD_HOME: home },
        },
      );
      const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
      expect(code).toBe(2);
      expect(stderr).toStartWith("shard daemon:");
      expect(existsSync(join(home, "daemon.sock"))).toBe(false);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  test(
    "an unsafe combination exits 2 naming the missing flag, before listening",
    async () => {
      const { code, stderr, stdout, home } = await runDaemon([
        "--web-host",
        "192.0.2.10",
        "--public-host",
        "192.0.2.10:7777",
        "--allowed-origin",
        "http://192.0.2.10:7777",
      ]);
      expect(code).toBe(2);
      expect(stderr).toContain("--allow-insecure-remote");
      expect(stdout).toBe("");
      expect(existsSync(join(home, "daemon.sock"))).toBe(false);
      const missing = await runDaemon([
        "--trust-proxy",
        "loopback",
        "--allowed-origin",
        "https://shard.example.com",
      ]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain("--public-host");
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  test(
    "--allow-insecure-remote starts with the one-line plaintext-cookie warning; both addresses are printed",
    async () => {
      const home = tempDir("home");
      const daemon = new DaemonProcess(home, [
        "--port",
        "0",
        "--trust-proxy",
        "loopback",
        "--public-host",
        "shard.lan:8080",
        "--allowed-origin",
        "http://shard.lan:8080",
        "--allow-insecure-remote",
      ]);
      const url = await daemon.url();
      const client = await daemon.client();
      // A command's answer is the barrier: by then start-up has printed everything.
      await client.ok({ type: "agent.list" });
      const warnings = daemon.stderr.split("\n").filter((l) => l.includes("warning"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain("plaintext");
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(daemon.stdout).toMatch(/^http:\/\/shard\.lan:8080\/#enroll=[A-Za-z0-9_-]{43}$/m);
      await client.ok({ type: "daemon.shutdown" });
      expect(await daemon.exited).toBe(0);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
