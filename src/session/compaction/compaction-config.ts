/**
 * Compaction settings from `$SHARD_HOME/config.json` (`compaction` key). A missing file
 * means defaults; a bad file or field means defaults for what is bad plus a warning — a
 * config mistake never stops the agent.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describeError } from "../../support/describe-error.ts";
import { errorCode } from "../../support/error-code.ts";
import { isRecord } from "../../support/is-record.ts";

export interface CompactionConfig {
  /** Automatic compaction; manual `session_op compact` runs regardless. */
  enabled: boolean;
  /** Compact between turns once the context exceeds this share of the model's window. */
  reserve_ratio: number;
  keep_recent_tokens: number;
  summarizer: "deterministic" | "model";
}

export const DEFAULT_COMPACTION_CONFIG: Readonly<CompactionConfig> = Object.freeze({
  enabled: true,
  reserve_ratio: 0.8,
  keep_recent_tokens: 20_000,
  summarizer: "deterministic",
});

export type KeepRecentTokensCheck =
  | { ok: true; value: number }
  | { ok: false; error: { code: "INVALID_REQUEST"; message: string } };

export function validateKeepRecentTokens(value: unknown): KeepRecentTokensCheck {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return { ok: true, value };
  return {
    ok: false,
    error: {
      code: "INVALID_REQUEST",
      message: `keep_recent_tokens must be a positive integer, got ${JSON.stringify(value)}`,
    },
  };
}

export function loadCompactionConfig(home: string): { config: CompactionConfig; warnings: string[] } {
  const config: CompactionConfig = { ...DEFAULT_COMPACTION_CONFIG };
  const warnings: string[] = [];
  const path = join(home, "config.json");
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch (err) {
    if (errorCode(err) !== "ENOENT") warnings.push(`${path}: ${describeError(err)}; using defaults`);
    return { config, warnings };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    warnings.push(`${path} is not valid JSON (${describeError(err)}); using compaction defaults`);
    return { config, warnings };
  }
  // A file that is not an object has no compaction section: defaults, as before.
  const c = isRecord(parsed) ? parsed.compaction : undefined;
  if (c === undefined) return { config, warnings };
  if (!isRecord(c)) {
    warnings.push(`${path}: "compaction" must be an object; using defaults`);
    return { config, warnings };
  }
  const bad = (field: string, expected: string): void => {
    warnings.push(
      `${path}: compaction.${field} must be ${expected}, got ${JSON.stringify(c[field])}; using the default`,
    );
  };
  if ("enabled" in c) {
    if (typeof c.enabled === "boolean") config.enabled = c.enabled;
    else bad("enabled", "a boolean");
  }
  if ("reserve_ratio" in c) {
    const r = c.reserve_ratio;
    if (typeof r === "number" && r > 0 && r <= 1) config.reserve_ratio = r;
    else bad("reserve_ratio", "a number in (0, 1]");
  }
  if ("keep_recent_tokens" in c) {
    const check = validateKeepRecentTokens(c.keep_recent_tokens);
    if (check.ok) config.keep_recent_tokens = check.value;
    else bad("keep_recent_tokens", "a positive integer");
  }
  if ("summarizer" in c) {
    if (c.summarizer === "deterministic" || c.summarizer === "model") config.summarizer = c.summarizer;
    else bad("summarizer", '"deterministic" or "model"');
  }
  return { config, warnings };
}
