/**
 * Killing a daemon -9 at an exact point of a git operation: a hook of the repository, once
 * armed, kills the daemon from inside git (docs: test/daemon/workspaces/crash-recovery.test.ts).
 */
import { expect } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processStartTime } from "../../../src/support/process-start.ts";
import type { DaemonClient } from "../support/daemon-client.ts";
import type { DaemonProcess } from "../support/daemon-harness.ts";

/**
 * Installs a hook that, once armed, writes the git processes between itself and the daemon to
 * `pids`, kills the daemon -9 and exits with `exitCode` (1 aborts a reference transaction).
 */
export function killingHook(
  repo: string,
  control: string,
  name: string,
  condition: string,
  exitCode: number,
): void {
  const hook = join(repo, ".git", "hooks", name);
  writeFileSync(
    hook,
    `#!/bin/sh
${condition}
[ -f "${control}/armed" ] || exit 0
rm -f "${control}/armed"
daemon=$(cat "${control}/daemon-pid")
p=$PPID
: > "${control}/pids.tmp"
while [ "$p" -gt 1 ] && [ "$p" != "$daemon" ]; do
  echo "$p" >> "${control}/pids.tmp"
  p=$(cut -d' ' -f4 /proc/$p/stat)
done
mv "${control}/pids.tmp" "${control}/pids"
kill -9 "$daemon"
exit ${exitCode}
`,
  );
  chmodSync(hook, 0o755);
}

/** A killing hook inside the deletion of a `shard/` branch (a retire's last git step). */
export function killingBranchDeletion(repo: string, control: string): void {
  killingHook(
    repo,
    control,
    "reference-transaction",
    `[ "$1" = prepared ] || exit 0
grep -q " 0000000000000000000000000000000000000000 refs/heads/shard/" || exit 0`,
    1,
  );
}

async function gone(pid: number): Promise<void> {
  for (;;) {
    const stat = processStartTime(pid) === undefined ? "" : readFileSync(`/proc/${pid}/stat`, "utf8");
    if (stat === "" || stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return;
    await Bun.sleep(10);
  }
}

/** Arms the hook for `daemon`, sends `command`, and returns once the daemon and its git are gone. */
export async function killDuring(
  control: string,
  daemon: DaemonProcess,
  c: DaemonClient,
  command: object,
): Promise<void> {
  writeFileSync(join(control, "daemon-pid"), String(daemon.proc.pid));
  writeFileSync(join(control, "armed"), "");
  c.send({ id: "cut-short", ...command });
  await daemon.exited;
  const pids = readFileSync(join(control, "pids"), "utf8").split("\n").filter(Boolean).map(Number);
  expect(pids.length).toBeGreaterThan(0);
  for (const pid of pids) await gone(pid);
}
