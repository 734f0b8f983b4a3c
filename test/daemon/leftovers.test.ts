/**
 * On start the daemon kills the process groups left behind by a dead owner (a daemon or a
 * runtime killed -9), using the same start-time-checked records the runtimes write, and it
 * records the runtime groups it starts itself.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type RunningDaemon, startDaemon } from "../../src/daemon/daemon.ts";
import { processStartTime } from "../../src/support/process-start.ts";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { DaemonClient } from "./support/daemon-client.ts";
import { runtimeEnv } from "./support/daemon-harness.ts";

setDefaultTimeout(30_000);

const llm = useMockLlmServer();
let running: RunningDaemon | undefined;
/** The leftover group of the first test, killed here by pid if the daemon did not. */
let leftover: number | undefined;
afterEach(async () => {
  await running?.stop(true);
  running = undefined;
  if (leftover !== undefined && processStartTime(leftover) !== undefined) {
    try {
      process.kill(-leftover, "SIGKILL");
    } catch {
      // gone
    }
  }
  leftover = undefined;
});

const REGISTRY = resolve(import.meta.dir, "../../src/tools/process-registry.ts");

/** An owner that starts a group, records it and dies without cleaning up. */
const OWNER = `
import { ProcessRegistry, processGroupsDir } from ${JSON.stringify(REGISTRY)};
const child = Bun.spawn(["sleep", "1000"], { detached: true, stdio: ["ignore", "ignore", "ignore"] });
new ProcessRegistry(processGroupsDir(process.argv[2])).track(child.pid, "sleep 1000");
console.log(child.pid);
process.kill(process.pid, "SIGKILL");
`;

async function gone(pid: number): Promise<void> {
  for (;;) {
    const stat = processStartTime(pid) === undefined ? "" : readFileSync(`/proc/${pid}/stat`, "utf8");
    if (stat === "" || stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return;
    await Bun.sleep(10);
  }
}

test("a group recorded by a dead owner is killed when the daemon starts", async () => {
  const home = tempDir("home");
  const script = join(tempDir("owner"), "owner.ts");
  await Bun.write(script, OWNER);
  const owner = Bun.spawn([process.execPath, script, home], { stdout: "pipe" });
  const pid = Number((await new Response(owner.stdout).text()).trim());
  leftover = pid;
  await owner.exited;
  expect(processStartTime(pid)).toBeDefined();
  const started = await startDaemon({ home, port: 0, env: runtimeEnv(home) });
  if (!started.ok) throw new Error(started.message);
  running = started.daemon;
  await gone(pid);
  expect(readFileSync(join(home, "logs", "daemon.log"), "utf8")).toContain(
    `leftover process group(s): ${pid}`,
  );
});

test("the daemon records each runtime's group while it runs", async () => {
  const home = mockHome(llm().url);
  const started = await startDaemon({ home, port: 0, env: runtimeEnv(home) });
  if (!started.ok) throw new Error(started.message);
  running = started.daemon;
  const client = await DaemonClient.unix(join(home, "daemon.sock"));
  await client.ok({ type: "agent.create", cwd: tempDir("cwd"), model: "mock/chat" });
  const records = readdirSync(join(home, "run", "pgroups")).map((name) =>
    JSON.parse(readFileSync(join(home, "run", "pgroups", name), "utf8")),
  );
  expect(records.some((r) => r.owner_pid === process.pid && r.command.startsWith("shard agent agent-"))).toBe(
    true,
  );
  client.close();
});
