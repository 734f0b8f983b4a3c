/**
 * Issue 22 item 2 with real bubblewrap, socat and curl: a confined command reaches a host on the
 * allowlist through the runtime's filtering proxy, and nothing else (negative tests: the other
 * host is refused, a direct connection and the proxy's host-side socket are out of reach, an
 * empty allowlist leaves no way out at all).
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AgentSandbox } from "../../src/sandbox/agent-sandbox.ts";
import { probeBubblewrap } from "../../src/sandbox/bubblewrap-probe.ts";
import { resolveSandboxSettings, type SandboxRequest } from "../../src/sandbox/sandbox-settings.ts";
import { makeTempDir } from "../support/temp-dirs.ts";
import { type HostServers, useHostServers } from "./support/host-servers.ts";

setDefaultTimeout(30_000);

const bwrap = probeBubblewrap(process.env);
if (!bwrap.ok) console.warn(`test/sandbox/network.test.ts skipped: ${bwrap.reason}`);
const describeConfined = bwrap.ok ? describe : describe.skip;

const servers = useHostServers();

const opened: AgentSandbox[] = [];
afterAll(() => {
  for (const sandbox of opened) sandbox.close();
});

function openSandbox(
  request: SandboxRequest,
  env: Record<string, string> = {},
  config?: object,
): { sandbox: AgentSandbox; home: string } {
  const home = makeTempDir("shard-net-home-");
  if (config !== undefined) writeFileSync(join(home, "config.json"), JSON.stringify(config));
  const fullEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ...env };
  const settings = resolveSandboxSettings({ mode: "workspace-write", ...request }, fullEnv, home);
  const result = AgentSandbox.open({ settings, cwd: makeTempDir("shard-net-cwd-"), home, env: fullEnv });
  if (!result.ok) throw new Error(result.error.message);
  opened.push(result.sandbox);
  return { sandbox: result.sandbox, home };
}

/** Runs a bash script the way the bash tool does: wrapped, spawned, waited for. */
async function run(
  sandbox: AgentSandbox,
  script: string,
): Promise<{ code: number; out: string; err: string }> {
  const wrapped = sandbox.wrap(["bash", "-c", script]);
  if (wrapped === undefined) throw new Error("the sandbox did not wrap the command");
  const proc = Bun.spawn(wrapped.argv, { env: wrapped.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, out, err };
}

const port = (server: ReturnType<HostServers["allowed"]>): number => server.port ?? 0;

describeConfined("sandbox network allowlist (real bwrap + socat)", () => {
  test("an allowed host is reached through the proxy, by plain HTTP and by a CONNECT tunnel", async () => {
    const { sandbox } = openSandbox({ networkAllow: ["localhost"] });
    const plain = await run(sandbox, `curl -sS http://localhost:${port(servers.allowed())}/`);
    expect(plain).toEqual({ code: 0, out: "ALLOWED-SERVER\n", err: "" });
    const tunnel = await run(sandbox, `curl -sS --proxytunnel http://LocalHost:${port(servers.allowed())}/`);
    expect(tunnel).toEqual({ code: 0, out: "ALLOWED-SERVER\n", err: "" });
  });

  test("a large body streams through both ways of the proxy intact", async () => {
    const big = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (req) =>
        req.method === "POST"
          ? new Response(String((await req.arrayBuffer()).byteLength))
          : new Response(new Uint8Array(8 * 1024 * 1024).fill(97)),
    });
    try {
      const { sandbox } = openSandbox({ networkAllow: ["localhost"] });
      const url = `http://localhost:${port(big)}/`;
      const down = await run(sandbox, `curl -sS ${url} | sha256sum; curl -sS -p ${url} | wc -c`);
      const expected = new Bun.CryptoHasher("sha256")
        .update(new Uint8Array(8 * 1024 * 1024).fill(97))
        .digest("hex");
      expect(down.out).toBe(`${expected}  -\n${8 * 1024 * 1024}\n`);
      const up = await run(sandbox, `head -c 6000000 /dev/zero | curl -sS --data-binary @- ${url}`);
      expect(up.out).toBe("6000000");
    } finally {
      big.stop(true);
    }
  });

  test("the proxy variables point at the bridge, and NO_PROXY is empty", async () => {
    const { sandbox } = openSandbox(
      { networkAllow: ["localhost"] },
      { NO_PROXY: "localhost", HTTP_PROXY: "http://u:pw@corp:8080" },
    );
    const env = await run(
      sandbox,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template.
      'printf "%s|" "$HTTP_PROXY" "$HTTPS_PROXY" "$http_proxy" "$https_proxy" "${NO_PROXY-unset}" "${no_proxy-unset}"',
    );
    const bridge = "http://127.0.0.1:3128";
    expect(env.out).toBe(`${bridge}|${bridge}|${bridge}|${bridge}|||`);
  });

  test("a host not on the list is refused with 403 and the reason, plain and tunnelled (negative)", async () => {
    const { sandbox } = openSandbox({ networkAllow: ["localhost", "*.example.com"] });
    const plain = await run(
      sandbox,
      `curl -sS -w '|%{http_code}' http://127.0.0.1:${port(servers.other())}/`,
    );
    expect(plain.out).toBe(
      "blocked by the Shard sandbox's network allowlist: 127.0.0.1; allowed: localhost, *.example.com\n|403",
    );
    const tunnel = await run(sandbox, `curl -sS --proxytunnel http://127.0.0.1:${port(servers.other())}/`);
    expect(tunnel.code).not.toBe(0);
    expect(tunnel.out).not.toContain("OTHER-SERVER");
    expect(tunnel.err).toContain("403");
  });

  test("a direct connection around the proxy finds nothing (negative)", async () => {
    const { sandbox } = openSandbox({ networkAllow: ["localhost"] });
    const curl = await run(sandbox, `curl -sS --noproxy '*' http://127.0.0.1:${port(servers.allowed())}/`);
    expect(curl.code).toBe(7); // couldn't connect
    expect(curl.out).toBe("");
    const tcp = await run(
      sandbox,
      `exec 3<>/dev/tcp/127.0.0.1/${port(servers.other())} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`,
    );
    expect(tcp.code).not.toBe(0);
    expect(tcp.out).not.toContain("OTHER-SERVER");
  });

  test("the proxy's socket on the host is out of reach; only its bind at /run is there (negative)", async () => {
    const { sandbox, home } = openSandbox({ networkAllow: ["localhost"] });
    const probe = await run(sandbox, 'echo "$TMPDIR"');
    const hostSocket = `${probe.out.trim()}.proxy.sock`;
    expect(hostSocket.startsWith(join(home, "tmp"))).toBe(true);
    expect(existsSync(hostSocket)).toBe(true); // the runtime's, on the host
    const inside = await run(
      sandbox,
      `test -e '${hostSocket}' && echo HOST-SOCKET-VISIBLE; curl -sS --noproxy '*' --unix-socket '${hostSocket}' http://localhost:${port(servers.other())}/; test -S /run/shard-proxy.sock && echo BOUND`,
    );
    expect(inside.out).toBe("BOUND\n");
    expect(inside.err).toContain("curl: (7)");
  });

  test("an empty allowlist: no proxy, no bridge, no proxy variables, no network (negative)", async () => {
    const { sandbox } = openSandbox({}, { HTTPS_PROXY: "http://corp:8080", no_proxy: "x" });
    const env = await run(
      sandbox,
      "env | grep -i _proxy; test -e /run/shard-proxy.sock && echo SOCKET; echo done",
    );
    expect(env.out).toBe("done\n");
    const curl = await run(sandbox, `curl -sS http://localhost:${port(servers.allowed())}/`);
    expect(curl.code).not.toBe(0);
    expect(curl.out).toBe("");
    expect(sandbox.startWarnings()).toEqual([]);
  });

  test("the allowlist may come from $SHARD_HOME/config.json", async () => {
    const { sandbox } = openSandbox({}, {}, { sandbox: { network: { allow: ["localhost"] } } });
    const plain = await run(sandbox, `curl -sS http://localhost:${port(servers.allowed())}/`);
    expect(plain.out).toBe("ALLOWED-SERVER\n");
  });

  test("without socat the agent warns and commands run with no network, still confined", async () => {
    const { sandbox } = openSandbox({ networkAllow: ["localhost"] }, { SHARD_SOCAT: "none" });
    expect(sandbox.startWarnings()).toEqual([
      "sandbox.network.allow lists localhost, but socat is not installed, so confined commands have no network; on Debian or Ubuntu: apt install socat (docs/sandbox.md#network)",
    ]);
    const curl = await run(
      sandbox,
      `curl -sS http://localhost:${port(servers.allowed())}/; touch /etc/escaped`,
    );
    expect(curl.out).toBe("");
    expect(curl.err).toStartWith(
      "[sandbox] sandbox.network.allow lists localhost, but socat is not installed",
    );
    expect(curl.err).toContain("/etc/escaped"); // read-only: still inside the sandbox
  });

  test("a proxy socket removed under the runtime is made again at the next command", async () => {
    const { sandbox } = openSandbox({ networkAllow: ["localhost"] });
    const probe = await run(sandbox, 'echo "$TMPDIR"');
    rmSync(`${probe.out.trim()}.proxy.sock`);
    for (let i = 0; i < 2; i++) {
      const plain = await run(sandbox, `curl -sS http://localhost:${port(servers.allowed())}/`);
      expect(plain.out).toBe("ALLOWED-SERVER\n");
    }
    expect(existsSync(`${probe.out.trim()}.proxy-1.sock`)).toBe(true);
  });

  test("close() stops the proxy and removes its socket", async () => {
    const { sandbox } = openSandbox({ networkAllow: ["localhost"] });
    const probe = await run(sandbox, 'echo "$TMPDIR"');
    const hostSocket = `${probe.out.trim()}.proxy.sock`;
    expect(existsSync(hostSocket)).toBe(true);
    sandbox.close();
    expect(existsSync(hostSocket)).toBe(false);
  });
});
