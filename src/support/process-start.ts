/**
 * When a process started, read from Linux procfs, so that a pid the kernel handed to another
 * process is told apart from the one that wrote a lock or a process-group record. The exact
 * identity is the boot id plus the start time in clock ticks since boot (field 22 of
 * /proc/<pid>/stat), unique per process for the life of the machine. Elsewhere (no procfs)
 * everything here is unknown.
 */
import { readFileSync } from "node:fs";

export interface ProcessStart {
  /** `<boot id>:<start ticks>`. */
  id: string;
  /** The same instant as epoch milliseconds, for records written before `id` existed. */
  wallMs: number;
}

/** /proc reports start times in USER_HZ ticks, 100 per second on every Linux architecture. */
const USER_HZ = 100;

let machine: { bootId: string; bootMs: number } | null | undefined;

function machineBoot(): { bootId: string; bootMs: number } | null {
  if (machine !== undefined) return machine;
  try {
    const bootId = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const btime = /^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1];
    machine = bootId && btime ? { bootId, bootMs: Number(btime) * 1000 } : null;
  } catch {
    machine = null;
  }
  return machine;
}

/** This boot's id, or undefined without procfs. */
export function currentBootId(): string | undefined {
  return machineBoot()?.bootId;
}

/** Start time of `pid` in clock ticks since boot, or undefined when it is gone or unknown. */
export function processStartTime(pid: number): string | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // Field 2 (comm) is parenthesised and may hold spaces or ")": fields 3… follow the last ")".
  const ticks = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[22 - 3];
  return ticks !== undefined && /^\d+$/.test(ticks) ? ticks : undefined;
}

/**
 * Whether `pid` has exited but is not reaped yet (a zombie, state Z, or X): it holds nothing
 * any more. A runtime killed with its daemon (-9) stays one until init reaps it. False when
 * unknown (not Linux, or gone altogether).
 */
export function hasExitedUnreaped(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state === "Z" || state === "X";
  } catch {
    return false;
  }
}

/** The start of process `pid`, or null when it is gone or this is not Linux. */
export function processStart(pid: number): ProcessStart | null {
  const boot = machineBoot();
  const ticks = processStartTime(pid);
  if (!boot || ticks === undefined) return null;
  return { id: `${boot.bootId}:${ticks}`, wallMs: boot.bootMs + (Number(ticks) * 1000) / USER_HZ };
}
