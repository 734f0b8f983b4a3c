/**
 * Checkpoint retention from `$SHARD_HOME/config.json` (`checkpoints` key: `keep`, the newest
 * checkpoints kept per session, and `max_mb`, the shadow objects kept per session). A missing
 * file or key means the defaults; a bad field means its default plus a warning.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isRecord } from "../support/is-record.ts";
import { DEFAULT_RETENTION, type Retention } from "./retention.ts";

const MB = 1024 * 1024;

export function loadCheckpointRetention(home: string): { retention: Retention; warnings: string[] } {
  const retention = { ...DEFAULT_RETENTION };
  const path = join(home, "config.json");
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    // A missing or broken config.json is reported by the settings that own the file.
    return { retention, warnings: [] };
  }
  const section = isRecord(parsed) ? parsed.checkpoints : undefined;
  if (section === undefined) return { retention, warnings: [] };
  if (!isRecord(section))
    return { retention, warnings: [`${path}: "checkpoints" must be an object; using the defaults`] };
  const warnings: string[] = [];
  const read = (field: string, max: number, set: (value: number) => void) => {
    const value = section[field];
    if (value === undefined) return;
    if (typeof value === "number" && Number.isSafeInteger(value) && value > 0 && value <= max) set(value);
    else
      warnings.push(`${path}: checkpoints.${field} must be an integer from 1 to ${max}; using the default`);
  };
  read("keep", 100_000, (keep) => {
    retention.maxCheckpoints = keep;
  });
  read("max_mb", 1_000_000, (mb) => {
    retention.maxBytes = mb * MB;
  });
  return { retention, warnings };
}
