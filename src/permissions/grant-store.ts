/**
 * Per-project grant file: `$SHARD_HOME/grants/<sha256(cwd)[:16]>.json`, shape
 * `{version: 1, cwd, rules: [...]}`, mode 0600, written atomically. It is read fresh on every
 * decision (it is small), so a grant written by one run applies in the next and in other runs.
 * A file someone else could have written is not trusted at all (docs/permissions.md).
 */
import { renameSync } from "node:fs";
import { join } from "node:path";
import { atomicWriteFileSync } from "../support/atomic-write.ts";
import { isRecord } from "../support/is-record.ts";
import { canonicalJson, sha256Hex } from "./canonical-json.ts";
import type { GrantRule } from "./grant-rules.ts";
import { readOwnerOnlyFile } from "./owner-only-file.ts";

export const GRANT_FILE_VERSION = 1;

/** Far above any file of grants made at the prompt; bounds what a hostile file can cost. */
export const GRANT_FILE_MAX_BYTES = 1024 * 1024;

export interface GrantFile {
  version: 1;
  cwd: string;
  /** Raw rules: interpreted only by registered matchers, so unknown kinds survive rewrites. */
  rules: unknown[];
}

/**
 * `missing`: no file yet. `unusable`: corrupt JSON or wrong shape. `foreign`: another version
 * or another project's cwd. `untrusted`: not a private regular file of this user (or too big).
 * Only `ok` contributes rules; the rest allow nothing.
 */
export type GrantFileState = "ok" | "missing" | "unusable" | "foreign" | "untrusted";

export interface LoadedGrants {
  state: GrantFileState;
  rules: unknown[];
  /** For `unusable`, `foreign` and `untrusted`: what to tell the user, naming the file. */
  problem?: string;
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
  const read = readOwnerOnlyFile(path, GRANT_FILE_MAX_BYTES);
  if (read.kind === "missing") return { state: "missing", rules: [] };
  if (read.kind === "refused") {
    const problem = `grants file ${path} is not trusted (${read.reason}); no saved grants apply. ${read.fix}`;
    return { state: "untrusted", rules: [], problem };
  }
  const unusable: LoadedGrants = {
    state: "unusable",
    rules: [],
    problem: `grants file ${path} is not valid grants JSON; no saved grants apply. The next saved grant moves it aside.`,
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.text);
  } catch {
    return unusable;
  }
  if (!isRecord(parsed) || typeof parsed.version !== "number" || !Array.isArray(parsed.rules))
    return unusable;
  if (parsed.version !== GRANT_FILE_VERSION || parsed.cwd !== cwd) {
    const problem =
      parsed.version !== GRANT_FILE_VERSION
        ? `grants file ${path} has version ${parsed.version}, which this Shard does not read; no saved grants apply and the file is left as it is.`
        : `grants file ${path} belongs to another project (${String(parsed.cwd)}); no saved grants apply and the file is left as it is.`;
    return { state: "foreign", rules: [], problem };
  }
  return { state: "ok", rules: parsed.rules };
}

function addGrant(path: string, cwd: string, rule: GrantRule): AddGrantResult {
  const current = loadGrantFile(path, cwd);
  if (current.state === "foreign" || current.state === "untrusted") {
    // Never clobber what we cannot read, nor a file someone else may have planted.
    return { ok: false, message: `${current.problem} The grant was not saved.` };
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
    const code = isRecord(err) && typeof err.code === "string" ? err.code : "error";
    return {
      ok: false,
      message: `could not save the grant to ${path} (${code}); it applies to this call only.`,
    };
  }
}

/** Identity of a rule for de-duplication: everything but when it was created. */
function ruleKey(rule: unknown): string {
  if (!isRecord(rule)) return canonicalJson(rule);
  const { created_at: _created, ...rest } = rule;
  return canonicalJson(rest);
}
