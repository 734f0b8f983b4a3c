/**
 * The process-group records under $SHARD_HOME/run/pgroups, with real processes: a dead
 * owner's group is killed only while its leader is the recorded process; a live owner's
 * records, other boots and unreadable records are never acted on.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { currentBootId, processStartTime } from "../../src/support/process-start.ts";
import { processGroupAlive } from "../../src/tools/process-group.ts";
import { type ProcessGroupRecord, ProcessRegistry } from "../../src/tools/process-registry.ts";
import { makeTempDir, removeDir } from "./helpers.ts";

let dir: string;
const groups: number[] = [];

beforeEach(() => {
  dir = makeTempDir("shard-pgroups-");
});
afterEach(() => {
  for (const pgid of groups.splice(0)) {
    if (!(pgid > 1)) continue;
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  removeDir(dir);
});

/** A real process group (leader + one child), as bash would start. */
function startGroup(): number {
  const proc = Bun.spawn(["bash", "-c", "sleep 1000 & sleep 1000"], {
    detached: true,
    stdio: ["ignore", "ignore", "ignore"],
  });
  groups.push(proc.pid);
  return proc.pid;
}

/** A living (non-zombie) member exists. */
const groupAlive = processGroupAlive;

async function deadPid(): Promise<number> {
  const proc = Bun.spawn(["true"]);
  await proc.exited;
  return proc.pid;
}

function writeRecord(record: ProcessGroupRecord): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${record.pgid}.json`);
  writeFileSync(path, JSON.stringify(record));
  return path;
}

async function recordOf(
  pgid: number,
  overrides: Partial<ProcessGroupRecord> = {},
): Promise<ProcessGroupRecord> {
  return {
    pgid,
    start_time: processStartTime(pgid) ?? "",
    boot_id: currentBootId() ?? "",
    owner_pid: await deadPid(),
    owner_start_time: "1",
    command: "sleep",
    ...overrides,
  };
}

describe("ProcessRegistry", () => {
  test("track writes a record that its release removes", () => {
    const registry = new ProcessRegistry(dir);
    const pgid = startGroup();
    const release = registry.track(pgid, "sleep 1000 & sleep 1000");
    const path = join(dir, `${pgid}.json`);
    expect(existsSync(path)).toBe(true);
    release();
    expect(existsSync(path)).toBe(false);
  });

  test("a dead owner's group whose leader is the recorded process is killed", async () => {
    const pgid = startGroup();
    const path = writeRecord(await recordOf(pgid));
    expect(new ProcessRegistry(dir).reapLeftovers()).toEqual([pgid]);
    expect(existsSync(path)).toBe(false);
    // SIGKILL is final; the group is gone once the kernel has torn it down.
    for (let i = 0; i < 2000 && groupAlive(pgid); i++) await Bun.sleep(10);
    expect(groupAlive(pgid)).toBe(false);
  });

  test("a leader with another start time (a reused pid) is not killed, and the record is dropped", async () => {
    const pgid = startGroup();
    const start = Number(processStartTime(pgid));
    const path = writeRecord(await recordOf(pgid, { start_time: String(start - 1) }));
    expect(new ProcessRegistry(dir).reapLeftovers()).toEqual([]);
    expect(existsSync(path)).toBe(false);
    expect(groupAlive(pgid)).toBe(true);
  });

  test("a record from another boot is dropped, never acted on", async () => {
    const pgid = startGroup();
    const path = writeRecord(await recordOf(pgid, { boot_id: "another-boot" }));
    expect(new ProcessRegistry(dir).reapLeftovers()).toEqual([]);
    expect(existsSync(path)).toBe(false);
    expect(groupAlive(pgid)).toBe(true);
  });

  test("the records of a live owner (another agent on the same home) are left alone", async () => {
    const pgid = startGroup();
    const owner = { owner_pid: process.pid, owner_start_time: processStartTime(process.pid) ?? "" };
    const path = writeRecord(await recordOf(pgid, owner));
    expect(new ProcessRegistry(dir).reapLeftovers()).toEqual([]);
    expect(existsSync(path)).toBe(true);
    expect(groupAlive(pgid)).toBe(true);
  });

  test("an unreadable record is dropped", () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "12345.json"), "{not json");
    writeFileSync(join(dir, "12346.json"), JSON.stringify({ pgid: "12346" }));
    expect(new ProcessRegistry(dir).reapLeftovers()).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  test("a missing directory is nothing to do", () => {
    expect(new ProcessRegistry(join(dir, "missing")).reapLeftovers()).toEqual([]);
  });
});
