/**
 * The remote path: a real daemon with its real browser authentication (no test
 * authenticator). A script enrolls with a code from `auth.enroll`, gets a ticket per connect
 * from /bootstrap, and drives an agent over the WebSocket — under Bun, and under Node from a
 * `bun build --target=node` bundle. A wrong ticket or Origin is refused.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { connectDaemon } from "../../sdk/src/daemon-client.ts";
import { ShardError } from "../../sdk/src/errors.ts";
import { cookieTicketSource, enrollWithCode } from "../../sdk/src/remote-auth.ts";
import { type RunningDaemon, startDaemon } from "../../src/daemon/daemon.ts";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { codeOf } from "../daemon/auth/auth-daemon.ts";
import { DaemonClient as RawClient } from "../daemon/support/daemon-client.ts";
import { runtimeEnv } from "../daemon/support/daemon-harness.ts";
import { CHILD_ENV } from "../support/child-env.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

// Real agent processes and daemons on a machine shared with other work.
setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const running: RunningDaemon[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((d) => d.stop(true)));
});

async function authDaemon() {
  const home = mockHome(llm().url);
  const started = await startDaemon({ home, port: 0, env: runtimeEnv(home) });
  if (!started.ok) throw new Error(started.message);
  running.push(started.daemon);
  const local = await RawClient.unix(join(home, "daemon.sock"));
  const mintCode = async () => codeOf(String((await local.ok({ type: "auth.enroll" })).url));
  return { daemon: started.daemon, url: started.daemon.url, mintCode, cwd: tempDir("cwd"), home };
}

describe("remote daemon over the WebSocket", () => {
  test("enroll with a code, connect with a ticket, run an agent (Bun)", async () => {
    const d = await authDaemon();
    const cookie = await enrollWithCode({ url: d.url, code: await d.mintCode(), label: "sdk test" });
    const daemon = await connectDaemon({ url: d.url, ticket: cookieTicketSource({ url: d.url, cookie }) });
    const agent = await daemon.createAgent({ cwd: d.cwd, model: "mock/chat" });
    llm().enqueue({ steps: [{ text: "over the websocket" }] });
    expect((await agent.run("hi")).text).toBe("over the websocket");
    daemon.close();
  });

  test("a ticket the daemon did not issue is refused with a clear error", async () => {
    const d = await authDaemon();
    const refused = await connectDaemon({ url: d.url, ticket: async () => "A".repeat(43) }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ShardError);
    expect((refused as ShardError).code).toBe("PERMISSION_DENIED");
    expect((refused as ShardError).message).toContain("/bootstrap");
  });

  test("a ticket is bound to its Origin: presenting it from another Origin is refused", async () => {
    const d = await authDaemon();
    const cookie = await enrollWithCode({ url: d.url, code: await d.mintCode() });
    const ticket = cookieTicketSource({ url: d.url, cookie });
    const refused = await connectDaemon({ url: d.url, origin: "http://evil.example", ticket }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ShardError);
  });

  test("an enrollment code works once", async () => {
    const d = await authDaemon();
    const code = await d.mintCode();
    await enrollWithCode({ url: d.url, code });
    const again = await enrollWithCode({ url: d.url, code }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ShardError);
    expect((again as ShardError).code).toBe("PERMISSION_DENIED");
  });

  test("the same client under Node 20: WebSocket and unix socket, no Bun globals", async () => {
    const out = join(tempDir("node-build"), "node-remote-client.mjs");
    const build = Bun.spawnSync([
      process.execPath,
      "build",
      join(import.meta.dir, "fixtures/node-remote-client.ts"),
      "--target=node",
      "--outfile",
      out,
    ]);
    expect(build.exitCode).toBe(0);
    const d = await authDaemon();
    llm().enqueue({ steps: [{ text: "hello, node" }] });
    // Node 20 has the standard WebSocket behind a flag; Node ≥ 22 has it by default.
    const node = Bun.spawn(
      [
        "node",
        "--experimental-websocket",
        out,
        d.url,
        await d.mintCode(),
        d.cwd,
        join(d.home, "daemon.sock"),
      ],
      {
        stdout: "pipe",
        stderr: "pipe",
        env: { ...CHILD_ENV },
      },
    );
    const [stdout, stderr, code] = await Promise.all([
      new Response(node.stdout).text(),
      new Response(node.stderr).text(),
      node.exited,
    ]);
    expect({ code, stderr: code === 0 ? "" : stderr }).toEqual({ code: 0, stderr: "" });
    const report = JSON.parse(stdout.trim());
    expect(report.text).toBe("hello, node");
    expect(report.sameAgentOverUnixSocket).toBe(true);
    expect(report.node).toMatch(/^v2\d\./);
    expect(report.bun).toBe("undefined");
  });
});

describe("a daemon whose answers are of the wrong shape", () => {
  const stopAfter: (() => void)[] = [];
  afterEach(() => {
    for (const stop of stopAfter.splice(0)) stop();
  });

  /** A peer on a real socket that answers each route with `answers[path]`, whatever is asked. */
  function fakeDaemon(answers: Record<string, () => Response>) {
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req) => answers[new URL(req.url).pathname]?.() ?? new Response("no", { status: 404 }),
    });
    stopAfter.push(() => server.stop(true));
    return `http://127.0.0.1:${server.port}`;
  }

  /** The ShardError `attempt` rejects with; anything else fails the test. */
  async function shardErrorOf(attempt: Promise<unknown>): Promise<ShardError> {
    const outcome = await attempt.then(
      (value) => value,
      (e: unknown) => e,
    );
    if (!(outcome instanceof ShardError)) throw new Error(`expected a ShardError, got ${String(outcome)}`);
    return outcome;
  }

  test("a /bootstrap answer without a string ticket is a clear error, not a ticket", async () => {
    const url = fakeDaemon({ "/bootstrap": () => Response.json({ ticket: 42, expires_at: 1 }) });
    const refused = await shardErrorOf(cookieTicketSource({ url, cookie: "shard_session=x" })());
    expect(refused.code).toBe("INTERNAL_ERROR");
    expect(refused.message).toStartWith(
      '/bootstrap: the daemon answered 200 with a body that does not match BootstrapAnswer (field "ticket": ',
    );
  });

  test("an /enroll answer without a browser_id is an error even with a cookie", async () => {
    const url = fakeDaemon({
      "/enroll": () =>
        Response.json({ id: "brw_1" }, { headers: { "Set-Cookie": "shard_session=x; Path=/" } }),
    });
    const refused = await shardErrorOf(enrollWithCode({ url, code: "c" }));
    expect(refused.message).toContain('does not match EnrollAnswer (field "browser_id": ');
  });

  test("a refusal keeps the daemon's code and message", async () => {
    const url = fakeDaemon({
      "/enroll": () => Response.json({ code: "INVALID_REQUEST", message: "bad body" }, { status: 400 }),
    });
    const refused = await shardErrorOf(enrollWithCode({ url, code: "c" }));
    expect(refused.toJSON()).toEqual({
      code: "INVALID_REQUEST",
      message: "/enroll: bad body",
    });
  });
});
