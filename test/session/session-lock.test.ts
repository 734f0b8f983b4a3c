import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { createSession } from "../../src/session/create-session.ts";
import { openSession } from "../../src/session/open-session.ts";
import type { SessionWarning } from "../../src/session/session-warning.ts";
import { lineReader, spawnFixture, tempHome, userText } from "./helpers.ts";

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => cleanup());

function newSession(): { id: string; lock: string } {
  const store = createSession({ home, cwd: "/tmp/p" });
  store.append(userText("hi"));
  store.close();
  return { id: store.sessionId, lock: join(dirname(store.path), "session.lock") };
}

describe("one writer per session", () => {
  test("a second writer in this process is refused while the first holds the lock", () => {
    const store = createSession({ home, cwd: "/tmp/p" });
    const second = openSession({ home, idOrPath: store.sessionId });
    expect(second.ok).toBe(false);
    if (!second.ok) {
      expect(second.error.code).toBe("CONFLICT");
      expect(second.error.message).toContain(`pid ${process.pid}`);
    }
    store.close();
    const third = openSession({ home, idOrPath: store.sessionId });
    expect(third.ok).toBe(true);
    if (third.ok) third.store.close();
  });

  test("a writer in another process is named in the CONFLICT; closing releases the lock", async () => {
    const { id, lock } = newSession();
    const child = spawnFixture("hold-session.ts", [home, id, "close"]);
    const out = lineReader(child.stdout, { name: "hold-session.ts", stderr: child.stderr });
    const line = await out.until((l) => l.startsWith("locked ") || l.startsWith("error "));
    expect(line).toBe(`locked ${child.pid}`);

    const refused = openSession({ home, idOrPath: id });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe("CONFLICT");
      expect(refused.error.message).toContain(`pid ${child.pid}`);
    }
    child.stdin.end();
    expect(await child.exited).toBe(0);
    expect(existsSync(lock)).toBe(false);
    const warnings: SessionWarning[] = [];
    const mine = openSession({ home, idOrPath: id, onWarning: (w) => warnings.push(w) });
    expect(mine.ok).toBe(true);
    expect(warnings).toEqual([]);
    if (mine.ok) mine.store.close();
  }, 30_000);

  test("the lock is removed when the holder exits without closing", async () => {
    const { id, lock } = newSession();
    const child = spawnFixture("hold-session.ts", [home, id, "exit"]);
    const out = lineReader(child.stdout, { name: "hold-session.ts", stderr: child.stderr });
    await out.until((l) => l.startsWith("locked "));
    expect(existsSync(lock)).toBe(true);
    child.stdin.end();
    await child.exited;
    expect(existsSync(lock)).toBe(false);
  }, 30_000);

  test("a stale lock of a dead pid is taken over and reported", async () => {
    const { id, lock } = newSession();
    const dead = Bun.spawn(["bun", "-e", "0"]);
    await dead.exited;
    writeFileSync(lock, JSON.stringify({ pid: dead.pid, hostname: hostname(), started_at: Date.now() }));
    const warnings: SessionWarning[] = [];
    const opened = openSession({ home, idOrPath: id, onWarning: (w) => warnings.push(w) });
    if (!opened.ok) throw new Error(opened.error.message);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.kind).toBe("stale_lock_taken_over");
    expect(warnings[0]?.message).toContain(`dead pid ${dead.pid}`);
    // The lock now names us: another open is refused.
    const second = openSession({ home, idOrPath: id });
    expect(!second.ok && second.error.message).toContain(`pid ${process.pid}`);
    opened.store.close();
  });

  test("a lock held on another host is never taken over", () => {
    const { id, lock } = newSession();
    writeFileSync(lock, JSON.stringify({ pid: 1, hostname: "some-other-host", started_at: 0 }));
    const opened = openSession({ home, idOrPath: id });
    expect(!opened.ok && opened.error.code).toBe("CONFLICT");
    expect(!opened.ok && opened.error.message).toContain("some-other-host");
  });

  // kill(pid, 0) reads 0 and negative pids as process groups, which always "live": trusting such
  // a pid would refuse the session forever. The lock names no process, so once past the grace
  // for a lock being created it is stale.
  test.each([0, -1, 1.5])("a lock file naming pid %p is taken over as naming no owner", (pid) => {
    const { id, lock } = newSession();
    writeFileSync(lock, JSON.stringify({ pid, hostname: hostname(), started_at: 0 }));
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(lock, longAgo, longAgo);
    const warnings: SessionWarning[] = [];
    const opened = openSession({ home, idOrPath: id, onWarning: (w) => warnings.push(w) });
    if (!opened.ok) throw new Error(opened.error.message);
    expect(warnings.map((w) => w.kind)).toEqual(["stale_lock_taken_over"]);
    expect(warnings[0]?.message).toContain("names no valid owner");
    opened.store.close();
  });
});
