/**
 * The daemon's durable record of the far-side directories it made for an ssh agent's subagent
 * links (subagent-link.ts): `$SHARD_HOME/placements/<name>/links/<agent_id>.json`, `{names}`,
 * each the random part of `${TMPDIR:-/tmp}/shard-link.<name>` there. A name is written before
 * the directory is made, so a runtime that dies without its remote shell (a `kill -9`, a
 * reboot) cannot leave a directory the daemon does not know of; the next generation of the
 * agent, or the next daemon start, removes the recorded ones through the placement and drops
 * them from the record. Atomic writes; bounded: past MAX_LINK_DIRS the oldest names are
 * forgotten (their directories left to the far side's tmp cleaner).
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PLACEMENT_NAME } from "../../placements/placement-config.ts";
import { atomicWriteFileSync } from "../../support/atomic-write.ts";
import { isRecord } from "../../support/is-record.ts";
import { AGENT_ID_PATTERN } from "./manifest.ts";

/** Names kept per agent at most; each failed start may add one. */
export const MAX_LINK_DIRS = 32;
/** What the daemon generates: 12 letters and digits (never a path, safe in a shell word). */
export const LINK_DIR_NAME = /^[A-Za-z0-9]{12}$/;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export function newLinkDirName(): string {
  // 62 letters: a byte modulo 62 is a little biased, which a unique temp name does not mind.
  return [...randomBytes(12)].map((byte) => ALPHABET[byte % ALPHABET.length]).join("");
}

function linksDir(home: string, placement: string): string {
  return join(home, "placements", placement, "links");
}

function recordPath(home: string, placement: string, agentId: string): string | undefined {
  if (!PLACEMENT_NAME.test(placement) || !AGENT_ID_PATTERN.test(agentId)) return undefined;
  return join(linksDir(home, placement), `${agentId}.json`);
}

/** The names recorded for the agent, oldest first; an unreadable record is empty. */
export function readLinkDirs(home: string, placement: string, agentId: string): string[] {
  const path = recordPath(home, placement, agentId);
  if (path === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
    const names = isRecord(parsed) && Array.isArray(parsed.names) ? parsed.names : [];
    return names.filter((n): n is string => typeof n === "string" && LINK_DIR_NAME.test(n));
  } catch {
    return [];
  }
}

/**
 * Replaces the agent's record with `names` (none: the file goes). Returns the names it had to
 * forget to stay within MAX_LINK_DIRS (the oldest). Throws when the write fails.
 */
export function writeLinkDirs(home: string, placement: string, agentId: string, names: string[]): string[] {
  const path = recordPath(home, placement, agentId);
  if (path === undefined) return [];
  const unique = [...new Set(names.filter((n) => LINK_DIR_NAME.test(n)))];
  const forgotten = unique.slice(0, Math.max(0, unique.length - MAX_LINK_DIRS));
  const kept = unique.slice(forgotten.length);
  if (kept.length === 0) rmSync(path, { force: true });
  else atomicWriteFileSync(path, `${JSON.stringify({ names: kept })}\n`);
  return forgotten;
}

/** Every agent with recorded names, on every placement (the daemon start's sweep). */
export function recordedLinkDirs(home: string): { placement: string; agentId: string }[] {
  const found: { placement: string; agentId: string }[] = [];
  for (const placement of listDir(join(home, "placements"))) {
    if (!PLACEMENT_NAME.test(placement)) continue;
    for (const file of listDir(linksDir(home, placement))) {
      const agentId = file.endsWith(".json") ? file.slice(0, -".json".length) : "";
      if (AGENT_ID_PATTERN.test(agentId)) found.push({ placement, agentId });
    }
  }
  return found;
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
