/**
 * Each runtime's private TMPDIR, under `$SHARD_HOME/tmp` (invisible to every other agent's
 * sandbox, since `$SHARD_HOME` is hidden and only one's own dir is bound back). Named after the
 * runtime's pid, so a runtime killed -9 leaves a dir the next one recognises and removes.
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { errorCode } from "../support/error-code.ts";

const PREFIX = "sandbox-";

export function tmpRoot(home: string): string {
  return join(home, "tmp");
}

export function makePrivateTmpdir(home: string): string {
  const root = tmpRoot(home);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const dir = join(root, `${PREFIX}${process.pid}-${crypto.randomUUID().slice(0, 8)}`);
  mkdirSync(dir, { mode: 0o700 });
  return dir;
}

/** Removes the dirs of runtimes that are gone; a living runtime's dir is left alone. */
export function reapPrivateTmpdirs(home: string): void {
  let names: string[];
  try {
    names = readdirSync(tmpRoot(home));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^sandbox-(\d+)-/.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid === process.pid || alive(pid)) continue;
    rmSync(join(tmpRoot(home), name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === "EPERM";
  }
}
