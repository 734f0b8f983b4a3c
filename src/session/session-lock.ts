/**
 * One writer per session: `session.lock` beside session.jsonl, created with O_EXCL and
 * holding the owner's pid, hostname and start time. A lock whose pid is dead (same host)
 * is stale and taken over; a live owner means CONFLICT. Held locks are removed on close
 * and on process exit (a kill -9 leaves a stale lock, which the next open takes over).
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";

export interface LockOwner {
  pid: number;
  hostname: string;
  started_at: number;
}

export interface HeldLock {
  readonly path: string;
  release(): void;
}

export type LockResult =
  | { ok: true; lock: HeldLock; tookOverFrom?: LockOwner }
  | { ok: false; error: { code: "CONFLICT"; message: string } };

/** A lock file that never received its content is stale after this long (the writer died mid-create). */
const EMPTY_LOCK_GRACE_MS = 5_000;

const heldLocks = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const path of heldLocks) removeIfOwned(path);
  });
}

function readOwner(path: string): LockOwner | null {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<LockOwner>;
    if (typeof parsed.pid !== "number" || typeof parsed.hostname !== "string") return null;
    return { pid: parsed.pid, hostname: parsed.hostname, started_at: Number(parsed.started_at) || 0 };
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else — it is alive.
    return (err as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

function removeIfOwned(path: string): void {
  const owner = readOwner(path);
  if (owner && owner.pid === process.pid && owner.hostname === hostname()) {
    try {
      unlinkSync(path);
    } catch {
      // Already gone.
    }
  }
}

function tryCreate(path: string, owner: LockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
  try {
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
  return true;
}

function describe(owner: LockOwner): string {
  return `pid ${owner.pid} on ${owner.hostname} (since ${new Date(owner.started_at).toISOString()})`;
}

/** Takes the lock at `path` or explains who holds it. Throws only on unexpected IO errors. */
export function acquireSessionLock(path: string): LockResult {
  const me: LockOwner = { pid: process.pid, hostname: hostname(), started_at: Date.now() };
  let tookOverFrom: LockOwner | undefined;
  // Two rounds: the second follows the removal of a stale lock (another opener may win that race).
  for (let round = 0; round < 2; round++) {
    if (tryCreate(path, me)) {
      heldLocks.add(path);
      installExitHook();
      const lock: HeldLock = {
        path,
        release() {
          if (!heldLocks.delete(path)) return;
          removeIfOwned(path);
        },
      };
      return tookOverFrom ? { ok: true, lock, tookOverFrom } : { ok: true, lock };
    }
    const owner = readOwner(path);
    if (owner === null) {
      let ageMs = 0;
      try {
        ageMs = Date.now() - statSync(path).mtimeMs;
      } catch {
        continue; // Vanished between our create and read: retry.
      }
      if (ageMs < EMPTY_LOCK_GRACE_MS) {
        return conflict(`session is locked by another process (lock file ${path} is being created)`);
      }
      tookOverFrom = { pid: 0, hostname: "unknown", started_at: 0 };
    } else if (owner.hostname !== hostname()) {
      return conflict(`session is locked by ${describe(owner)}; cannot check a process on another host`);
    } else if (isAlive(owner.pid)) {
      return conflict(`session is locked by ${describe(owner)}, which is still running`);
    } else {
      tookOverFrom = owner;
    }
    // Stale: re-read right before removing so we do not delete a lock someone just took over.
    const again = readOwner(path);
    if (again && owner && (again.pid !== owner.pid || again.started_at !== owner.started_at)) continue;
    try {
      unlinkSync(path);
    } catch {
      // Someone else removed it first; the next round decides.
    }
  }
  return conflict(`session lock ${path} is contended; try again`);
}

function conflict(message: string): LockResult {
  return { ok: false, error: { code: "CONFLICT", message } };
}
