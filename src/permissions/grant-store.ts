/**
 * Per-project grant file: `$SHARD_HOME/grants/<sha256(cwd)[:16]>.json`, shape
 * `{version: 1, cwd, rules: [...]}`, mode 0600, written atomically. It is read fresh on every
 * decision (it is small), so a grant written by one run applies in the next and in other runs.
 */
import { readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { atomicWriteFileSync } from "../support/atomic-write.ts";
import { canonicalJson, sha256Hex } from "./canonical-json.ts";
import { type GrantRule, isRecord } from "./grant-rules.ts";

export const GRANT_FILE_VERSION = 1;

export interface GrantFile {
  version: 1;
  cwd: string;
  /** Raw rules: interpreted only by registered matchers, so unknown kinds survive rewrites. */
  rules: unknown[];
}

/**
 * `missing`: no file yet. `unusable`: corrupt JSON or wrong shape. `foreign`: another version
 * or another project's cwd. Only `ok` contributes rules; the rest allow nothing.
 */
export type GrantFileState = "ok" | "missing" | "unusable" | "foreign";

export interface LoadedGrants {
  state: GrantFileState;
  rules: unknown[];
}

export type AddGrantResult = { ok: true } | { ok: false; message: string };

export interface GrantStore {
  readonly path: string;
  load(): LoadedGrants;
  /** Appends `rule` unless an equivalent one exists. Never throws. */
  add(rule: GrantRule): AddGrantResult;
}

export function grantFilePath(home: string, cwd: string): string {
  return join(home, "grants", `${sha256Hex(cwd).slice(0, 16)}.json`);
}

export function openGrantStore(home: string, cwd: string): GrantStore {
  const path = grantFilePath(home, cwd);
  return {
    path,
    load: () => loadGrantFile(path, cwd),
    add: (rule) => addGrant(path, cwd, rule),
  };
}

function loadGrantFile(path: string, cwd: string): LoadedGrants {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { state: "missing", rules: [] };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { state: "unusable", rules: [] };
  }
  if (!isRecord(parsed) || typeof parsed.version !== "number" || !Array.isArray(parsed.rules)) {
    return { state: "unusable", rules: [] };
  }
  if (parsed.version !== GRANT_FILE_VERSION || parsed.cwd !== cwd) return { state: "foreign", rules: [] };
  return { state: "ok", rules: parsed.rules };
}

function addGrant(path: string, cwd: string, rule: GrantRule): AddGrantResult {
  const current = loadGrantFile(path, cwd);
  if (current.state === "foreign") {
    // A newer version or another project's file: never clobber what we cannot read.
    return { ok: false, message: "the grant file belongs to another version or project; not modified" };
  }
  try {
    if (current.state === "unusable") renameSync(path, `${path}.corrupt-${Date.now()}`);
    const key = ruleKey(rule);
    if (current.rules.some((existing) => ruleKey(existing) === key)) return { ok: true };
    const file: GrantFile = {
      version: GRANT_FILE_VERSION,
      cwd,
      rules: [...current.rules, { ...rule, created_at: new Date().toISOString() }],
    };
    atomicWriteFileSync(path, `${JSON.stringify(file, null, 2)}\n`, 0o600);
    return { ok: true };
  } catch (err) {
    return {
      ok: false,
      message: `could not save the grant: ${(err as NodeJS.ErrnoException).code ?? "error"}`,
    };
  }
}

/** Identity of a rule for de-duplication: everything but when it was created. */
function ruleKey(rule: unknown): string {
  if (!isRecord(rule)) return canonicalJson(rule);
  const { created_at: _created, ...rest } = rule;
  return canonicalJson(rest);
}
