/**
 * One writer per session: `session.lock` beside session.jsonl, created with O_EXCL and
 * holding the owner's pid, hostname, acquisition time and process start identity. A lock of
 * this host is stale, and taken over, when its pid is dead or now belongs to a process that
 * started later than the owner (the kernel reused the pid); a running owner means CONFLICT.
 * Held locks are removed on close and on process exit (a kill -9 leaves a stale lock, which
 * the next open takes over).
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { errorCode } from "../support/error-code.ts";
import { isRecord } from "../support/is-record.ts";
import { hasExitedUnreaped, processStart } from "../support/process-start.ts";

export interface LockOwner {
  pid: number;
  hostname: string;
  /** Epoch ms when the lock was taken. */
  started_at: number;
  /** The owner's process start identity (process-start.ts); absent off Linux and in older locks. */
  start_id?: string;
}

/** Why a lock was taken over: its pid had died, or had been reused, or it never got content. */
export type StaleReason = "dead" | "reused" | "empty";

export interface HeldLock {
  readonly path: string;
  release(): void;
}

export type LockResult =
  | { ok: true; lock: HeldLock; tookOverFrom?: LockOwner & { reason: StaleReason } }
  | { ok: false; error: { code: "CONFLICT"; message: string } };

/** A lock file that never received its content is stale after this long (the writer died mid-create). */
const EMPTY_LOCK_GRACE_MS = 5_000;
/**
 * For locks without `start_id`: a live pid whose process started this long after the lock
 * was taken cannot be its owner. Covers the 1 s granularity of the boot time and clock steps.
 */
const LEGACY_START_SLACK_MS = 5_000;

const heldLocks = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const path of heldLocks) removeIfOwned(path);
  });
}

/** The owner a lock file names, or null when it is missing, unreadable or names no process. */
function readOwner(path: string): LockOwner | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
  return lockOwnerOf(parsed);
}

/**
 * The owner in a parsed lock file. pid and hostname must be valid; the rest is best effort, as
 * older locks lack `start_id` (a lock is refused rather than taken over on a technicality).
 */
function lockOwnerOf(value: unknown): LockOwner | null {
  if (!isRecord(value)) return null;
  const { pid, hostname: host, started_at, start_id } = value;
  // kill(2) reads 0 and negative pids as process groups: such a lock names no process.
  if (typeof pid !== "number" || !Number.isSafeInteger(pid) || pid < 1) return null;
  if (typeof host !== "string") return null;
  const owner: LockOwner = { pid, hostname: host, started_at: Number(started_at) || 0 };
  if (typeof start_id === "string") owner.start_id = start_id;
  return owner;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else — it is alive.
    return errorCode(err) !== "ESRCH";
  }
}

/** Why the lock of `owner` (this host) is stale, or null while its owner may still run. */
function staleReason(owner: LockOwner): StaleReason | null {
  if (!isAlive(owner.pid) || hasExitedUnreaped(owner.pid)) return "dead";
  const live = processStart(owner.pid);
  if (live === null) return null; // No way to tell (not Linux, or just exited): keep refusing.
  if (owner.start_id !== undefined) return owner.start_id === live.id ? null : "reused";
  // An older lock: its owner had started by the time it took the lock.
  if (owner.started_at > 0 && live.wallMs > owner.started_at + LEGACY_START_SLACK_MS) return "reused";
  return null;
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
    if (errorCode(err) === "EEXIST") return false;
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
  const myStart = processStart(process.pid);
  if (myStart) me.start_id = myStart.id;
  let tookOverFrom: (LockOwner & { reason: StaleReason }) | undefined;
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
      tookOverFrom = { pid: 0, hostname: "unknown", started_at: 0, reason: "empty" };
    } else if (owner.hostname !== hostname()) {
      return conflict(`session is locked by ${describe(owner)}; cannot check a process on another host`);
    } else {
      const reason = staleReason(owner);
      if (reason === null) {
        return conflict(`session is locked by ${describe(owner)}, which is still running`);
      }
      tookOverFrom = { ...owner, reason };
    }
    // Stale: re-read right before removing so we do not delete a lock someone just took over.
    const again = readOwner(path);
    if (again && owner && !sameOwner(again, owner)) continue;
    try {
      unlinkSync(path);
    } catch {
      // Someone else removed it first; the next round decides.
    }
  }
  return conflict(`session lock ${path} is contended; try again`);
}

function sameOwner(a: LockOwner, b: LockOwner): boolean {
  return a.pid === b.pid && a.started_at === b.started_at && a.start_id === b.start_id;
}

function conflict(message: string): LockResult {
  return { ok: false, error: { code: "CONFLICT", message } };
}
