/** Process-group helpers for `bash`: the command runs as a group leader, so it dies as a group. */
import { readdirSync, readFileSync } from "node:fs";
import { errorCode } from "../support/error-code.ts";

/**
 * True while a living process of the group exists. kill(2) also counts zombies (dead but not
 * reaped, which happens under a container init that never reaps), so on Linux the answer is
 * confirmed from /proc.
 */
export function processGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    // EPERM means a member exists but belongs to someone else: still alive.
    return errorCode(error) === "EPERM";
  }
  return process.platform === "linux" ? hasLivingMember(pgid) : true;
}

function hasLivingMember(pgid: number): boolean {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return true;
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // "pid (comm) state ppid pgrp ...": comm may contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") return true;
  }
  return false;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/**
 * SIGTERM to the whole group, then SIGKILL to whatever is still there after `graceMs`.
 * Resolves once the group is empty (SIGKILL cannot be refused; the wait after it is only bounded
 * so that a process stuck in the kernel cannot hang the caller).
 */
export async function killProcessGroup(pgid: number, graceMs: number): Promise<void> {
  signalGroup(pgid, "SIGTERM");
  if (await waitForEmptyGroup(pgid, graceMs)) return;
  signalGroup(pgid, "SIGKILL");
  await waitForEmptyGroup(pgid, 5000);
}

async function waitForEmptyGroup(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!processGroupAlive(pgid)) return true;
    if (Date.now() >= deadline) return false;
    await Bun.sleep(25);
  }
}
