/**
 * The orphan sweep of a placement (docs/placements.md): a runtime the daemon starts on another
 * machine gets `--owner-tag <agent_id>` and records itself under `$SHARD_HOME/run/placed/` on
 * that machine. The daemon runs one generation per agent at a time, so a live runtime already
 * recorded under the tag is an orphan (its link dropped and it has not noticed yet, e.g. a
 * network partition without a FIN): the new one kills its process group before it opens the
 * session, whose lock the orphan would otherwise hold. The pid is trusted only with its start
 * time and boot id, as in src/tools/process-registry.ts.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { atomicWriteFileSync } from "../support/atomic-write.ts";
import { currentBootId, hasExitedUnreaped, processStartTime } from "../support/process-start.ts";

export const OWNER_TAG = /^[A-Za-z0-9_-]{1,80}$/;

const OwnedRuntimeSchema = Type.Object({
  pid: Type.Integer({ minimum: 1 }),
  start_time: Type.String(),
  boot_id: Type.String(),
});

/** How long the sweep waits for a killed orphan to be gone (it holds the session lock). */
const ORPHAN_EXIT_WAIT_MS = 5_000;

export interface OwnerClaim {
  /** The orphan killed under this tag, if there was one. */
  swept?: number;
  /** Drops the record (at exit), unless a newer runtime has taken the tag since. */
  release(): void;
}

export function claimOwnerTag(home: string, tag: string): OwnerClaim {
  const path = join(home, "run", "placed", `${tag}.json`);
  const swept = sweep(path);
  const me = { pid: process.pid, start_time: processStartTime(process.pid), boot_id: currentBootId() };
  if (me.start_time === undefined || me.boot_id === undefined)
    return { ...(swept ? { swept } : {}), release: () => {} };
  const text = `${JSON.stringify(me)}\n`;
  try {
    atomicWriteFileSync(path, text);
  } catch {
    // Without the record only the sweep of a later orphan is lost, never this runtime.
    return { ...(swept ? { swept } : {}), release: () => {} };
  }
  return {
    ...(swept !== undefined ? { swept } : {}),
    release: () => {
      try {
        if (readFileSync(path, "utf8") === text) rmSync(path, { force: true });
      } catch {
        // gone already
      }
    },
  };
}

function sweep(path: string): number | undefined {
  let record: unknown;
  try {
    record = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
  if (!Value.Check(OwnedRuntimeSchema, record)) return undefined;
  const { pid, start_time, boot_id } = record;
  if (pid === process.pid || boot_id !== currentBootId() || processStartTime(pid) !== start_time)
    return undefined;
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // not a group leader, or gone
    }
  }
  const deadline = Date.now() + ORPHAN_EXIT_WAIT_MS;
  while (processStartTime(pid) === start_time && !hasExitedUnreaped(pid) && Date.now() < deadline)
    Bun.sleepSync(20);
  return pid;
}
