/**
 * Real confinement of `bash` through a real `shard agent` (docs/sandbox.md): under the default
 * `workspace-write`, every attack below fails, and the controls with `--sandbox off` show the
 * same commands succeed there. The sandbox is real bubblewrap; the file is skipped, saying so,
 * only where bubblewrap cannot run.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { probeBubblewrap } from "../../src/sandbox/bubblewrap-probe.ts";
import { type AgentProcess, type Msg, mockHome, tempDir } from "../agent/support/agent-process.ts";
import { answerNextPermission, openGate, until, waitForGate } from "../agent/support/events.ts";
import { useAgentHarness } from "../agent/support/harness.ts";

const probe = probeBubblewrap(process.env);
if (!probe.ok) console.warn(`test/sandbox skipped: ${probe.reason}`);

/** The sandbox's own defaults: no policy from the test environment (CHILD_ENV sets "ask"). */
const DEFAULTS = { SHARD_SANDBOX_POLICY: "" };

const { llm, spawn, start } = useAgentHarness({ env: DEFAULTS });
// A test that ends before the model's last reply was asked for leaves it queued: not for the next.
beforeEach(() => llm().clearQueue());

const outsideDirs: string[] = [];
afterEach(() => {
  for (const dir of outsideDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A directory outside the agent's cwd and outside /tmp (which every sandbox replaces with an
 * empty dir, so a sibling there is simply not found), and a fake `~` with an SSH key.
 */
function world() {
  const outside = mkdtempSync("/var/tmp/shard-outside-");
  outsideDirs.push(outside);
  const fakeHome = tempDir("fake-home");
  mkdirSync(join(fakeHome, ".ssh"));
  writeFileSync(
    join(fakeHome, ".ssh", "id_ed25519"),
    "-----BEGIN OPENSSH PRIVATE KEY----- SECRET-KEY-MATERIAL\n",
  );
  return { outside, fakeHome };
}

const listeners: { stop(): void }[] = [];
afterEach(() => {
  for (const l of listeners.splice(0)) l.stop();
});

/** A TCP listener on the host's loopback that counts the connections it got. */
function hostListener(): { port: number; connections: () => number } {
  let connections = 0;
  const server = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(socket) {
        connections += 1;
        socket.end("hello from the host\n");
      },
      data() {},
    },
  });
  listeners.push(server);
  return { port: server.port, connections: () => connections };
}

/** Two HTTP servers on unix sockets in /tmp: one directly there, one in a tmux-like socket dir. */
function hostSockets(): { top: string; inTmuxDir: string } {
  const tag = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const top = `/tmp/shard-test-${tag}.sock`;
  const dir = `/tmp/tmux-${tag.replace(/\D/g, "").slice(0, 9)}`;
  mkdirSync(dir, { recursive: true });
  const inTmuxDir = join(dir, "default");
  for (const unix of [top, inTmuxDir]) {
    listeners.push(Bun.serve({ unix, fetch: () => new Response("HOST-SOCKET\n") }));
    outsideDirs.push(unix);
  }
  outsideDirs.push(dir);
  return { top, inTmuxDir };
}

/** One bash call by the model and its result; permission requests are answered when `allow`. */
async function bash(agent: AgentProcess, command: string, extra: object = {}, allow = false): Promise<Msg> {
  const from = agent.events.length;
  llm().enqueue(
    { steps: [{ tool_call: { name: "bash", args: { command, ...extra } } }] },
    { steps: [{ text: "done" }] },
  );
  const res = await agent.request({ type: "prompt", message: "run it" });
  expect(res.success).toBe(true);
  if (allow) await answerNextPermission(agent, from);
  const result = await agent.waitType("tool_result", from);
  await agent.waitType("turn_end", from);
  return result;
}

function output(result: Msg): string {
  return result.content.kind === "text" ? result.content.text : result.content.message;
}

describe.skipIf(!probe.ok)("workspace-write (the default): each attack fails", () => {
  test("a write outside cwd fails, says why, and nothing appears there", async () => {
    const { outside } = world();
    const agent = await spawn();
    const result = await bash(agent, `echo pwned > ${outside}/pwned.txt`);
    expect(result.is_error).toBe(true);
    expect(result.sandbox).toBe("workspace-write");
    expect(output(result)).toContain("Read-only file system");
    expect(output(result)).toContain("[sandbox] This command ran in the workspace-write sandbox");
    expect(output(result)).toContain("unsandboxed: true");
    expect(existsSync(join(outside, "pwned.txt"))).toBe(false);
  });

  test("/tmp is read-only, and a unix socket there (tmux, ssh-agent) cannot be reached", async () => {
    const sibling = tempDir("sibling");
    writeFileSync(join(sibling, "notes.txt"), "SIBLING-NOTES");
    const sockets = hostSockets();
    const agent = await spawn();
    const result = await bash(
      agent,
      `cat ${sibling}/notes.txt; echo x > ${sibling}/new.txt; ` +
        `curl -sS --max-time 5 --unix-socket ${sockets.top} http://host/; ` +
        `curl -sS --max-time 5 --unix-socket ${sockets.inTmuxDir} http://host/`,
    );
    expect(output(result)).toContain("SIBLING-NOTES");
    expect(existsSync(join(sibling, "new.txt"))).toBe(false);
    expect(output(result)).not.toContain("HOST-SOCKET");
  });

  test("a fake ~/.ssh key and $SHARD_HOME/models.json cannot be read; provider keys are not in the environment", async () => {
    const { fakeHome } = world();
    const agent = await spawn({ env: { ...DEFAULTS, HOME: fakeHome, OPENAI_API_KEY: "sk-test-SECRET" } });
    const result = await bash(
      agent,
      `cat ~/.ssh/id_ed25519; cat "$SHARD_HOME/models.json"; ls -a ~/.ssh; echo "key=[$OPENAI_API_KEY]"`,
    );
    const text = output(result);
    expect(text).not.toContain("SECRET-KEY-MATERIAL");
    expect(text).not.toContain("providers");
    expect(text).toContain("key=[]");
    expect(text).toContain("No such file or directory");
  });

  test("a TCP listener on the host's loopback cannot be reached", async () => {
    const listener = hostListener();
    const agent = await spawn();
    const result = await bash(
      agent,
      `exec 3<>/dev/tcp/127.0.0.1/${listener.port} && echo connected; cat <&3`,
    );
    expect(output(result)).not.toContain("hello from the host");
    expect(output(result)).not.toContain("connected");
    // The same connection from the test itself works: the listener was there to be reached.
    const socket = await Bun.connect({ hostname: "127.0.0.1", port: listener.port, socket: { data() {} } });
    socket.end();
    await until(() => (listener.connections() === 1 ? true : undefined));
  });

  test("a symlink in cwd pointing outside, and /proc/self/root, lead nowhere writable", async () => {
    const { outside } = world();
    const agent = await spawn();
    const result = await bash(
      agent,
      `ln -s ${outside} out; echo via-link > out/via-link.txt; ` +
        `echo via-proc > /proc/self/root${outside}/via-proc.txt; echo via-init > /proc/1/root${outside}/via-init.txt; ` +
        "ls /proc | grep -c '^[0-9]'",
    );
    for (const name of ["via-link.txt", "via-proc.txt", "via-init.txt"])
      expect(existsSync(join(outside, name))).toBe(false);
    expect(output(result)).toContain("Read-only file system");
  });

  test("a setsid'd grandchild is confined too, and dies with the command", async () => {
    const { outside } = world();
    const agent = await spawn();
    const marker = `${Math.random()}`.slice(2, 10);
    const result = await bash(
      agent,
      `setsid bash -c 'echo late > ${outside}/late.txt; echo "grandchild wrote: $?"'; ` +
        `setsid sleep 7${marker} & echo started`,
    );
    expect(output(result)).toContain("grandchild wrote: 1");
    expect(existsSync(join(outside, "late.txt"))).toBe(false);
    // The background sleep left the group but not the sandbox: it died with the command.
    await until(() => (hostProcesses(`sleep 7${marker}`) === 0 ? true : undefined));
  });

  test("an abort kills every process of a confined command", async () => {
    const agent = await spawn();
    const marker = `${Math.random()}`.slice(2, 10);
    const from = agent.events.length;
    llm().enqueue({
      steps: [
        {
          tool_call: { name: "bash", args: { command: `sleep 8${marker} & setsid sleep 9${marker} & wait` } },
        },
      ],
    });
    await agent.request({ type: "prompt", message: "run it" });
    await agent.waitType("tool_call", from);
    await until(() =>
      hostProcesses(`sleep 8${marker}`) === 1 && hostProcesses(`sleep 9${marker}`) === 1 ? true : undefined,
    );
    await agent.request({ type: "abort" });
    await agent.waitType("turn_end", from);
    expect(hostProcesses(`sleep 8${marker}`) + hostProcesses(`sleep 9${marker}`)).toBe(0);
  });
});

describe.skipIf(!probe.ok)("what works inside", () => {
  test("git commit, branch and status work; git hooks and config stay read-only", async () => {
    const cwd = tempDir("repo");
    Bun.spawnSync(["git", "init", "-q", "-b", "main"], { cwd });
    const agent = await spawn({ cwd });
    const result = await bash(
      agent,
      "echo one > a.txt && git add a.txt && git -c user.email=a@b.c -c user.name=A commit -qm first && " +
        "git branch feature && git status --short --branch && git log --oneline | wc -l; " +
        "echo 'touch /tmp/owned' > .git/hooks/post-commit; echo hooks=$?; git config core.fsmonitor 'touch x'; echo config=$?",
    );
    const text = output(result);
    expect(text).toContain("## main");
    expect(text).toContain("hooks=1");
    expect(text).toContain("config=");
    expect(text).not.toContain("config=0");
    expect(existsSync(join(agent.cwd, ".git", "hooks", "post-commit"))).toBe(false);
    expect(readFileSync(join(agent.cwd, ".git", "config"), "utf8")).not.toContain("fsmonitor");
    const branches = Bun.spawnSync(["git", "branch", "--list"], { cwd: agent.cwd }).stdout.toString();
    expect(branches).toContain("feature");
  });

  test("`bun test` of a small project runs, with TMPDIR private and writable", async () => {
    const agent = await spawn();
    writeFileSync(join(agent.cwd, "sum.ts"), "export const sum = (a: number, b: number) => a + b;\n");
    writeFileSync(
      join(agent.cwd, "sum.test.ts"),
      'import { expect, test } from "bun:test";\nimport { sum } from "./sum.ts";\ntest("sum", () => expect(sum(1, 2)).toBe(3));\n',
    );
    const result = await bash(agent, `${process.execPath} test 2>&1; touch "$TMPDIR/scratch" && echo tmp-ok`);
    expect(output(result)).toContain("1 pass");
    expect(output(result)).toContain("tmp-ok");
    expect(result.is_error).toBe(false);
  });
});

describe.skipIf(!probe.ok)("read-only, and the off control", () => {
  test("read-only: a write in cwd fails", async () => {
    const agent = await spawn({ args: ["--sandbox", "read-only"] });
    const result = await bash(agent, "echo x > here.txt");
    expect(result.sandbox).toBe("read-only");
    expect(output(result)).toContain("Read-only file system");
    expect(existsSync(join(agent.cwd, "here.txt"))).toBe(false);
  });

  test("off: the same commands succeed (the control)", async () => {
    const { outside, fakeHome } = world();
    const listener = hostListener();
    const sockets = hostSockets();
    const agent = await spawn({ args: ["--sandbox", "off"], env: { ...DEFAULTS, HOME: fakeHome } });
    const result = await bash(
      agent,
      `echo pwned > ${outside}/pwned.txt; cat ~/.ssh/id_ed25519; curl -sS --unix-socket ${sockets.inTmuxDir} http://host/; ` +
        `exec 3<>/dev/tcp/127.0.0.1/${listener.port} && cat <&3`,
      {},
      true,
    );
    expect(output(result)).toContain("HOST-SOCKET");
    expect(result.sandbox).toBe("off");
    expect(existsSync(join(outside, "pwned.txt"))).toBe(true);
    expect(output(result)).toContain("SECRET-KEY-MATERIAL");
    expect(output(result)).toContain("hello from the host");
  });
});

describe.skipIf(!probe.ok)("the person sees whether a call is sandboxed", () => {
  test("with policy ask, the prompt and the result say sandboxed", async () => {
    const agent = await spawn({ args: ["--sandbox-policy", "ask"] });
    const from = agent.events.length;
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command: "echo inside" } } }] },
      { steps: [{ text: "ok" }] },
    );
    await agent.request({ type: "prompt", message: "run it" });
    const request = await answerNextPermission(agent, from);
    expect(request.prompt).toBe("Allow bash (sandboxed, workspace-write): echo inside?");
    expect(request.sandbox).toBe("workspace-write");
    expect(request.details).toContainEqual(expect.objectContaining({ label: "Sandbox" }));
    const result = await agent.waitType("tool_result", from);
    expect(result.sandbox).toBe("workspace-write");
    await agent.waitType("turn_end", from);
  });

  test("the default policy runs a confined call without a question", async () => {
    const agent = await spawn();
    const from = agent.events.length;
    const result = await bash(agent, "echo inside");
    expect(output(result)).toContain("inside");
    expect(agent.typesSince(from)).not.toContain("permission_request");
  });

  test("unsandboxed: true always asks, says it leaves the sandbox, offers no 'always', and runs unconfined", async () => {
    const { outside } = world();
    const agent = await spawn();
    const from = agent.events.length;
    llm().enqueue(
      {
        steps: [
          {
            tool_call: {
              name: "bash",
              args: { command: `echo out > ${outside}/out.txt`, unsandboxed: true },
            },
          },
        ],
      },
      { steps: [{ text: "ok" }] },
    );
    await agent.request({ type: "prompt", message: "run it" });
    const request = await agent.waitType("permission_request", from);
    expect(request.prompt).toContain("outside the sandbox (not sandboxed)");
    expect(request.sandbox).toBe("off");
    expect(request.choices.map((c: Msg) => c.id)).toEqual(["allow_once", "deny"]);
    agent.send({ type: "permission_response", request_id: request.request_id, choice_id: "allow_once" });
    const result = await agent.waitType("tool_result", from);
    expect(result.sandbox).toBe("off");
    expect(readFileSync(join(outside, "out.txt"), "utf8")).toBe("out\n");
  });

  test("a running command can be held and released: the sandbox does not break live output", async () => {
    const agent = await spawn();
    const from = agent.events.length;
    llm().enqueue(
      {
        steps: [
          { tool_call: { name: "bash", args: { command: `echo first; ${waitForGate("go")}; echo second` } } },
        ],
      },
      { steps: [{ text: "ok" }] },
    );
    await agent.request({ type: "prompt", message: "run it" });
    await agent.waitFor((m) => m.type === "tool_output" && String(m.text_delta).includes("first"), from);
    openGate(agent.cwd, "go");
    const result = await agent.waitType("tool_result", from);
    expect(output(result)).toContain("second");
  });
});

describe("where there is no sandbox", () => {
  test("the default runs unconfined but says so: a warning, no capability, and sync names the reason", async () => {
    const agent = start({ env: { ...DEFAULTS, SHARD_BWRAP: "none" } });
    const sync = await agent.waitType("sync");
    const hello = agent.events.find((e) => e.type === "hello");
    expect(hello?.capabilities).not.toContain("sandbox");
    expect(sync.sandbox).toMatchObject({ mode: "off", requested: "workspace-write", mechanism: "none" });
    expect(sync.sandbox.unavailable).toContain("SHARD_BWRAP=none");
    const warning = await agent.waitFor(
      (m) => m.type === "error" && String(m.message).includes("sandbox is unavailable"),
    );
    expect(warning.fatal).toBe(false);
  });

  test("a sandbox somebody asked for is refused instead of running unconfined", async () => {
    const agent = start({
      args: ["--sandbox", "workspace-write"],
      env: { ...DEFAULTS, SHARD_BWRAP: "none" },
    });
    const code = await agent.exit();
    expect(code).toBe(2);
    expect(agent.stderr).toContain('--sandbox: sandbox "workspace-write" is not available on this machine');
  });

  test("the private TMPDIR of a runtime killed -9 is removed by the next runtime on the home", async () => {
    const home = mockHome(llm().url);
    const gone = Bun.spawn(["true"]);
    await gone.exited;
    const left = join(home, "tmp", `sandbox-${gone.pid}-deadbeef`);
    mkdirSync(left, { recursive: true });
    writeFileSync(join(left, "scratch"), "x");
    await spawn({ home });
    expect(existsSync(left)).toBe(false);
  });

  test.skipIf(!probe.ok)(
    "with bubblewrap, hello advertises the sandbox and sync tells its state",
    async () => {
      const agent = await spawn();
      expect(agent.events.find((e) => e.type === "hello")?.capabilities).toContain("sandbox");
      const sync = agent.events.find((e) => e.type === "sync");
      expect(sync?.sandbox).toEqual({
        mode: "workspace-write",
        policy: "auto-allow-sandboxed",
        mechanism: "bubblewrap",
        network_allow: [],
      });
    },
  );
});

/** How many host processes run exactly `args` (ps sees through every pid namespace). */
function hostProcesses(args: string): number {
  const ps = Bun.spawnSync(["ps", "-eo", "stat=,args="]).stdout.toString();
  return ps.split("\n").filter((line) => {
    const [stat, ...rest] = line.trim().split(/\s+/);
    return stat !== undefined && !stat.startsWith("Z") && rest.join(" ") === args;
  }).length;
}
