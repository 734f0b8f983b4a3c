/**
 * A stale session lock whose pid the kernel gave to an unrelated process
 * (docs/architecture.md §9.2, one writer): the lock records its owner's process start, so a live
 * pid with a different start is taken over, while a lock whose owner really runs is still refused.
 * Linux only: elsewhere the start identity is unknown and a live pid always keeps its lock.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { createSession } from "../../src/session/create-session.ts";
import { openSession } from "../../src/session/open-session.ts";
import type { SessionWarning } from "../../src/session/session-warning.ts";
import { lineReader, spawnFixture, tempHome, userText } from "./helpers.ts";

let home: string;
let cleanup: () => void;
/** A real live process that has nothing to do with any session. */
let unrelated: ReturnType<typeof Bun.spawn>;
beforeEach(() => {
  ({ home, cleanup } = tempHome());
  unrelated = Bun.spawn(["sleep", "600"]);
});
afterEach(async () => {
  unrelated.kill("SIGKILL");
  await unrelated.exited;
  cleanup();
});

function newSession(): { id: string; lock: string } {
  const store = createSession({ home, cwd: "/tmp/p" });
  store.append(userText("hi"));
  store.close();
  return { id: store.sessionId, lock: join(dirname(store.path), "session.lock") };
}

/** Process start identity read straight from procfs: boot id + start ticks (stat field 22). */
function startIdOf(pid: number): string {
  const bootId = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const ticks = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  return `${bootId}:${ticks}`;
}

function openWithWarnings(id: string) {
  const warnings: SessionWarning[] = [];
  const opened = openSession({ home, idOrPath: id, onWarning: (w) => warnings.push(w) });
  return { opened, warnings };
}

const linux = process.platform === "linux";

describe.skipIf(!linux)("a lock whose pid was reused", () => {
  test("a live pid with a different start identity is taken over and reported", () => {
    const { id, lock } = newSession();
    const pid = unrelated.pid;
    const otherStart = `${startIdOf(pid).split(":")[0]}:1`;
    writeFileSync(
      lock,
      JSON.stringify({ pid, hostname: hostname(), started_at: Date.now(), start_id: otherStart }),
    );
    const { opened, warnings } = openWithWarnings(id);
    if (!opened.ok) throw new Error(opened.error.message);
    expect(warnings.map((w) => w.kind)).toEqual(["stale_lock_taken_over"]);
    expect(warnings[0]?.message).toContain(`pid ${pid}`);
    expect(warnings[0]?.message).toContain("unrelated process");
    // The lock now names us, with our own start identity.
    expect(JSON.parse(readFileSync(lock, "utf8"))).toMatchObject({
      pid: process.pid,
      start_id: startIdOf(process.pid),
    });
    opened.store.close();
  });

  test("an older lock (no start identity) taken before the live pid's process started is taken over", () => {
    const { id, lock } = newSession();
    const pid = unrelated.pid;
    const longBefore = Date.now() - 10 * 60_000;
    writeFileSync(lock, JSON.stringify({ pid, hostname: hostname(), started_at: longBefore }));
    const { opened, warnings } = openWithWarnings(id);
    if (!opened.ok) throw new Error(opened.error.message);
    expect(warnings[0]?.message).toContain("unrelated process");
    opened.store.close();
  });

  test("a lock naming the live process's own start identity is refused", () => {
    const { id, lock } = newSession();
    const pid = unrelated.pid;
    const owner = { pid, hostname: hostname(), started_at: Date.now(), start_id: startIdOf(pid) };
    writeFileSync(lock, JSON.stringify(owner));
    const { opened } = openWithWarnings(id);
    expect(!opened.ok && opened.error).toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining(`pid ${pid}`),
    });
    // An older lock taken after that process started is refused too.
    writeFileSync(lock, JSON.stringify({ pid, hostname: hostname(), started_at: Date.now() }));
    expect(openWithWarnings(id).opened.ok).toBe(false);
  });

  test("a lock whose owner exited but is not reaped yet (a zombie) is taken over as dead", async () => {
    const { id, lock } = newSession();
    // The inner shell stops itself; once its parent has become `sleep` (exec), which never reaps,
    // it is continued and exits. Exiting before the exec would let the shell reap it.
    const parent = Bun.spawn(["sh", "-c", 'sh -c "kill -STOP \\$\\$; exit 0" & echo $!; exec sleep 600'], {
      stdout: "pipe",
    });
    const zombie = Number((await lineReader(parent.stdout).until((l) => /^\d+$/.test(l))).trim());
    const state = (pid: number) => readFileSync(`/proc/${pid}/stat`, "utf8");
    try {
      while (!state(zombie).includes(") T ") || !state(parent.pid).includes("(sleep)")) await Bun.sleep(5);
      process.kill(zombie, "SIGCONT");
      while (!state(zombie).includes(") Z ")) await Bun.sleep(5);
      writeFileSync(
        lock,
        JSON.stringify({
          pid: zombie,
          hostname: hostname(),
          started_at: Date.now(),
          start_id: startIdOf(zombie),
        }),
      );
      const { opened, warnings } = openWithWarnings(id);
      if (!opened.ok) throw new Error(opened.error.message);
      expect(warnings.map((w) => w.kind)).toEqual(["stale_lock_taken_over"]);
      expect(warnings[0]?.message).toContain(`pid ${zombie}`);
      opened.store.close();
    } finally {
      parent.kill("SIGKILL");
      await parent.exited;
    }
  });

  test("a lock held by a live session writer is still refused", async () => {
    const { id, lock } = newSession();
    const child = spawnFixture("hold-session.ts", [home, id, "close"]);
    const out = lineReader(child.stdout);
    expect(await out.until((l) => l.startsWith("locked ") || l.startsWith("error "))).toBe(
      `locked ${child.pid}`,
    );
    expect(JSON.parse(readFileSync(lock, "utf8"))).toMatchObject({
      pid: child.pid,
      start_id: startIdOf(child.pid),
    });
    const { opened, warnings } = openWithWarnings(id);
    expect(!opened.ok && opened.error).toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining(`pid ${child.pid}`),
    });
    expect(warnings).toEqual([]);
    child.stdin.end();
    expect(await child.exited).toBe(0);
  }, 30_000);
});
