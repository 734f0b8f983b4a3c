/**
 * Job records on disk under `$SHARD_HOME/jobs/`. Every write is atomic (temp + fsync +
 * rename), so a crash leaves the previous or the next version of a record, never half of one.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { atomicWriteFileSync } from "../../support/atomic-write.ts";
import { describeError } from "../../support/describe-error.ts";
import { idPattern } from "../../support/ids.ts";
import { type JobRecord, parseJobRecord } from "./job-record.ts";

/** `job-….json`, or `job_….json` as records written before the protocol's separator are named. */
export const JOB_FILE = new RegExp(idPattern("job", "\\.json"));

export interface JobProblem {
  file: string;
  reason: string;
}

export class JobStore {
  readonly dir: string;

  constructor(home: string) {
    this.dir = join(home, "jobs");
  }

  save(job: JobRecord): void {
    atomicWriteFileSync(join(this.dir, `${job.job_id}.json`), `${JSON.stringify(job)}\n`);
  }

  /** Every readable record; an unreadable one is reported and skipped, never fatal. */
  loadAll(): { jobs: JobRecord[]; problems: JobProblem[] } {
    const jobs: JobRecord[] = [];
    const problems: JobProblem[] = [];
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return { jobs, problems };
    }
    for (const file of names.sort()) {
      if (!JOB_FILE.test(file)) continue;
      let text: string;
      try {
        text = readFileSync(join(this.dir, file), "utf8");
      } catch (err) {
        problems.push({ file, reason: describeError(err) });
        continue;
      }
      const parsed = parseJobRecord(text);
      if (!parsed.ok) problems.push({ file, reason: parsed.reason });
      else if (`${parsed.job.job_id}.json` !== file)
        problems.push({ file, reason: `record names another job (${parsed.job.job_id})` });
      else jobs.push(parsed.job);
    }
    return { jobs, problems };
  }
}
