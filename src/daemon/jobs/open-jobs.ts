/**
 * Whether the job records left anything for a starting daemon to recover: a run that was not
 * terminal, or a completion report the parent has not taken. A cheap look at the text (records
 * are written by JSON.stringify, so a key never appears inside a string value unescaped); the
 * service parses and checks every record properly once it loads.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { JOB_FILE } from "./job-store.ts";

const OPEN = ['"state":"queued"', '"state":"starting"', '"state":"active"', '"report_pending":true'];

export function jobsNeedRecovery(home: string): boolean {
  const dir = join(home, "jobs");
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false;
  }
  for (const name of names) {
    if (!JOB_FILE.test(name)) continue;
    let text: string;
    try {
      text = readFileSync(join(dir, name), "utf8");
    } catch {
      continue;
    }
    if (OPEN.some((marker) => text.includes(marker))) return true;
  }
  return false;
}
