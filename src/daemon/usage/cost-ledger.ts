/**
 * The daemon-wide cost ledger (docs/usage.md): `$SHARD_HOME/usage/ledger.jsonl`, one line per
 * provider call of every agent the daemon runs, appended with O_APPEND and fsynced, so it
 * survives a daemon crash or restart. A call's line is written once the task that reported it
 * has ended, with every other line of that task (one write, one fsync): the fsync took ~0.7 ms
 * on the way of the events behind the `usage` event (a turn's end, a tool call) to the clients.
 * Whatever reads the ledger writes what waits first. A torn last line (a crash mid-write) is
 * skipped when read; so is any line over MAX_LINE_BYTES or that fails its schema.
 *
 * Compaction (ledger-compaction.ts) rolls whole past days into `usage/daily.json`: per day,
 * agent, model, job and workspace, the totals. That file names the last day it holds
 * (`compacted_through`) and is written first, atomically; lines of those days left in the
 * ledger by a crash before the ledger was rewritten are ignored, so nothing counts twice.
 */
import {
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { type LedgerEntry, LedgerEntrySchema } from "../../types/usage.ts";
import { schemaCheck } from "../../wire/schema-check.ts";
import { type DailyTotals, readDailyTotals } from "./daily-totals.ts";

/** No honest entry comes near it (every string of an entry is bounded by its schema). */
export const MAX_LINE_BYTES = 16 * 1024;

const entryCheck = schemaCheck(LedgerEntrySchema);

export function usageDir(home: string): string {
  return join(home, "usage");
}

/** The UTC day of an epoch-ms time, `YYYY-MM-DD`. */
export function dayOf(ts: number): string {
  return new Date(ts).toISOString().slice(0, 10);
}

export class CostLedger {
  readonly path: string;
  private fd: number | undefined;
  /** Lines of calls not written yet (this task's), and whether their write is scheduled. */
  private waiting: string[] = [];
  private writeScheduled = false;

  constructor(
    readonly home: string,
    /** A write that failed after `append` returned (a full disk): the daemon's log says so. */
    private readonly onWriteError: (message: string) => void = () => {},
  ) {
    this.path = join(usageDir(home), "ledger.jsonl");
  }

  /** One call: on disk (fsynced) at the end of this task, or sooner if something reads the ledger. */
  append(entry: LedgerEntry): void {
    const line = `${JSON.stringify(entry)}\n`;
    if (Buffer.byteLength(line) > MAX_LINE_BYTES) throw new Error("ledger entry over its size bound");
    this.waiting.push(line);
    if (this.writeScheduled) return;
    this.writeScheduled = true;
    // A macrotask: the clients' writes (end of this task) go first.
    setImmediate(() => {
      this.writeScheduled = false;
      this.writeWaiting();
    });
  }

  /**
   * Writes and fsyncs the lines not written yet (one write). A disk that refuses them loses
   * them, as a refused append did, and the daemon's log says so: a reader carries on.
   */
  private writeWaiting(): void {
    if (this.waiting.length === 0) return;
    const text = this.waiting.join("");
    this.waiting = [];
    try {
      this.writeText(text);
    } catch (err) {
      this.onWriteError(`cost ledger: could not write ${this.path}: ${String(err)}`);
    }
  }

  private writeText(text: string): void {
    if (this.fd === undefined) {
      mkdirSync(usageDir(this.home), { recursive: true, mode: 0o700 });
      this.fd = openSync(
        this.path,
        constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
        0o600,
      );
    }
    writeSync(this.fd, text);
    fsyncSync(this.fd);
  }

  /** The ledger's file is about to be replaced (compaction): the next append opens the new one. */
  reopen(): void {
    this.writeWaiting();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  close(): void {
    this.reopen();
  }

  /** The lines of days not yet compacted, oldest first (the calls not written yet included). */
  entries(daily: DailyTotals = readDailyTotals(this.home)): LedgerEntry[] {
    this.writeWaiting();
    if (!existsSync(this.path)) return [];
    const through = daily.compacted_through;
    const out: LedgerEntry[] = [];
    for (const line of readFileSync(this.path, "utf8").split("\n")) {
      if (line === "" || line.length > MAX_LINE_BYTES) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue; // a torn last line
      }
      if (!entryCheck.check(value)) continue;
      if (through !== null && dayOf(value.ts) <= through) continue;
      out.push(value);
    }
    return out;
  }
}
