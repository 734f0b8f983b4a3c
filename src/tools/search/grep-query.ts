/** What both `grep` backends take and produce, so they can be compared record for record. */

export interface GrepQuery {
  pattern: string;
  /** Absolute path of the directory (or single file) to search. */
  root: string;
  rootIsFile: boolean;
  glob?: string;
  ignoreCase: boolean;
  literal: boolean;
  /** Lines of context around each match. */
  context: number;
  /** Stop after this many matching lines. */
  limit: number;
  /** Real paths below `root` never searched: those the sandbox hides. */
  excluded: readonly string[];
}

export interface GrepRecord {
  /** Absolute path of the file. */
  path: string;
  /** 1-based line number. */
  line: number;
  /** The line without its terminator. */
  text: string;
  /** False for a context line. */
  isMatch: boolean;
}

export type GrepOutcome =
  /**
   * `dropped`: lines the backend reported that the verified file does not hold (rg only).
   * `malformed`: lines of the backend's output that could not be read (rg only).
   */
  | { ok: true; records: GrepRecord[]; limitHit: boolean; dropped?: number; malformed?: number }
  | { ok: false; message: string };

/** Collects records in order until the match limit is passed. */
export class GrepCollector {
  readonly records: GrepRecord[] = [];
  private matches = 0;
  limitHit = false;

  constructor(private readonly limit: number) {}

  /** False once a match beyond the limit arrives: the caller stops searching. */
  add(record: GrepRecord): boolean {
    if (record.isMatch) {
      if (this.matches >= this.limit) {
        this.limitHit = true;
        return false;
      }
      this.matches++;
    }
    this.records.push(record);
    return true;
  }

  outcome(): GrepOutcome {
    return { ok: true, records: this.records, limitHit: this.limitHit };
  }
}
