/**
 * `shard agent --session` and a lock whose pid the kernel reused (issue 7 item 9): a real agent
 * takes it over with a warning, and still refuses a session a real live agent holds. Linux
 * only (the process start identity comes from procfs).
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { mockHome, tempDir } from "./support/agent-process.ts";
import { activeSession, sessionFile } from "./support/events.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

const { llm, start, spawn } = useAgentHarness();

const unrelated: ReturnType<typeof Bun.spawn>[] = [];
afterEach(async () => {
  for (const p of unrelated.splice(0)) {
    p.kill("SIGKILL");
    await p.exited;
  }
});

describe.skipIf(process.platform !== "linux")("a stale lock with a reused pid", () => {
  test("is taken over by a resuming agent, which says so; a live agent's lock is still refused", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const first = await spawn({ home, cwd });
    await first.prompt("hello");
    const id = await activeSession(first);
    expect(await first.close()).toBe(0);

    // The lock as a crashed agent would have left it, its pid since given to another process.
    const sleeper = Bun.spawn(["sleep", "600"]);
    unrelated.push(sleeper);
    const bootId = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const lock = join(dirname(sessionFile(home, id)), "session.lock");
    writeFileSync(
      lock,
      JSON.stringify({
        pid: sleeper.pid,
        hostname: hostname(),
        started_at: Date.now(),
        start_id: `${bootId}:1`,
      }),
    );
    const resumed = await spawn({ home, cwd, args: ["--session", id] });
    const warning = await resumed.waitFor((m) => m.type === "error" && m.fatal === false);
    expect(warning.message).toContain(`pid ${sleeper.pid}`);
    expect(warning.message).toContain("unrelated process");
    expect(JSON.parse(readFileSync(lock, "utf8")).pid).toBe(resumed.proc.pid);

    // While the resumed agent runs, its lock holds.
    const refused = start({ home, cwd, args: ["--session", id] });
    expect(await refused.exited).not.toBe(0);
    const fatal = await refused.waitType("error");
    expect(fatal).toMatchObject({ code: "CONFLICT", fatal: true });
    expect(fatal.message).toContain(`pid ${resumed.proc.pid}`);
  });
});
