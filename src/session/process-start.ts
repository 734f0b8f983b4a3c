/**
 * When a process started, read from Linux procfs, so that a pid the kernel handed to another
 * process can be told apart from the process that wrote a lock. `id` is exact: the boot id
 * plus the start time in clock ticks since boot (field 22 of /proc/<pid>/stat), unique per
 * process for the life of the machine. `wallMs` is the same instant as epoch milliseconds,
 * for locks written before `id` was recorded. Elsewhere (no procfs) both are unknown: null.
 */
import { readFileSync } from "node:fs";

export interface ProcessStart {
  id: string;
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

/** The start of process `pid`, or null when it is gone or this is not Linux. */
export function processStart(pid: number): ProcessStart | null {
  const boot = machineBoot();
  if (!boot || !Number.isInteger(pid) || pid <= 0) return null;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // Field 2 (comm) is parenthesised and may hold spaces or ")": fields 3… follow the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = fields[22 - 3];
  if (ticks === undefined || !/^\d+$/.test(ticks)) return null;
  return { id: `${boot.bootId}:${ticks}`, wallMs: boot.bootMs + (Number(ticks) * 1000) / USER_HZ };
}
