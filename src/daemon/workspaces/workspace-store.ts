/**
 * Workspace records on disk: `$SHARD_HOME/workspaces/<workspace_id>.json`, one file each,
 * written atomically (owner-only), read back at start. A record that fails its schema is left
 * in place, reported, and skipped: never silently rewritten.
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Value } from "@sinclair/typebox/value";
import { atomicWriteFileSync } from "../../support/atomic-write.ts";
import { describeError } from "../../support/describe-error.ts";
import { type WorkspaceRecord, WorkspaceRecordSchema } from "./workspace-record.ts";

export class WorkspaceStore {
  readonly dir: string;

  constructor(home: string) {
    this.dir = join(home, "workspaces");
  }

  load(log: (line: string) => void): WorkspaceRecord[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith(".json"));
    } catch {
      return [];
    }
    const records: WorkspaceRecord[] = [];
    for (const name of names) {
      try {
        const value: unknown = JSON.parse(readFileSync(join(this.dir, name), "utf8"));
        if (Value.Check(WorkspaceRecordSchema, value)) records.push(value);
        else log(`workspace record ${name} does not match its schema; left untouched and skipped`);
      } catch (err) {
        log(`workspace record ${name} cannot be read (${describeError(err)}); skipped`);
      }
    }
    return records;
  }

  save(record: WorkspaceRecord): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    atomicWriteFileSync(
      join(this.dir, `${record.workspace_id}.json`),
      `${JSON.stringify(record, null, 2)}\n`,
    );
  }
}
