/**
 * Records of the live process groups an agent started (docs/architecture.md §9.5), one file per
 * group under `$SHARD_HOME/run/pgroups/<pgid>.json`. A kill -9 of the agent skips every clean-up,
 * so the next agent (or the daemon) on the same home kills the groups whose owner is dead.
 *
 * A pid is only trusted together with its start time (field 22 of /proc/<pid>/stat) and the
 * boot id: a record whose pid now belongs to another process is dropped, never signalled.
 * Without /proc (not Linux) nothing can be verified, so nothing is recorded or killed.
 */
import { readdirSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { atomicWriteFileSync } from "../support/atomic-write.ts";
import { currentBootId, processStartTime } from "../support/process-start.ts";

const ProcessGroupRecordSchema = Type.Object({
  /** The group leader; its pid is the group id. */
  pgid: Type.Integer(),
  /** Start time of the leader in clock ticks since boot (/proc/<pid>/stat field 22). */
  start_time: Type.String(),
  boot_id: Type.String(),
  /** The agent that started the group, with its own start time. */
  owner_pid: Type.Integer(),
  owner_start_time: Type.String(),
  command: Type.String(),
});
export type ProcessGroupRecord = Static<typeof ProcessGroupRecordSchema>;

export function processGroupsDir(home: string): string {
  return join(home, "run", "pgroups");
}

export class ProcessRegistry {
  constructor(private readonly dir: string) {}

  /**
   * Records a group this process just started; returns the function that removes the record
   * once the group has been dealt with. A record that cannot be written only loses the
   * kill -9 clean-up, never the command.
   */
  track(pgid: number, command: string): () => void {
    const start_time = processStartTime(pgid);
    const owner_start_time = processStartTime(process.pid);
    const boot_id = currentBootId();
    if (start_time === undefined || owner_start_time === undefined || boot_id === undefined) return () => {};
    const record: ProcessGroupRecord = {
      pgid,
      start_time,
      boot_id,
      owner_pid: process.pid,
      owner_start_time,
      command: command.slice(0, 200),
    };
    const path = this.recordPath(pgid);
    try {
      atomicWriteFileSync(path, `${JSON.stringify(record)}\n`);
    } catch {
      return () => {};
    }
    return () => removeFile(path);
  }

  /**
   * Kills (SIGKILL) every recorded group whose owner is dead and whose leader is still the
   * process that was recorded, and drops the records of dead owners. Records of a live owner
   * (another agent on the same home) are left alone. Returns the group ids that were killed.
   */
  reapLeftovers(): number[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((name) => /^\d+\.json$/.test(name));
    } catch {
      return [];
    }
    const boot = currentBootId();
    if (boot === undefined) return [];
    const killed: number[] = [];
    for (const name of names) {
      const path = join(this.dir, name);
      const record = readRecord(path);
      if (record === undefined) {
        removeFile(path); // unreadable or not ours: it can never be verified
        continue;
      }
      const sameBoot = record.boot_id === boot;
      if (sameBoot && processStartTime(record.owner_pid) === record.owner_start_time) continue;
      if (sameBoot && record.pgid > 1 && processStartTime(record.pgid) === record.start_time) {
        try {
          process.kill(-record.pgid, "SIGKILL");
          killed.push(record.pgid);
        } catch {
          // ESRCH: it ended meanwhile.
        }
      }
      removeFile(path);
    }
    return killed;
  }

  private recordPath(pgid: number): string {
    return join(this.dir, `${pgid}.json`);
  }
}

function readRecord(path: string): ProcessGroupRecord | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return Value.Check(ProcessGroupRecordSchema, value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
