/**
 * MCP timeouts from `$SHARD_HOME/config.json` (`mcp` key: `connect_timeout_ms`,
 * `call_timeout_ms`). A missing file means defaults; a bad field means its default plus a
 * warning.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isRecord } from "../support/is-record.ts";

export interface McpTimeouts {
  /** Start-up, initialize handshake and the first tools/list, per server. */
  connectMs: number;
  /** One tools/call; progress notifications from the server do not extend it. */
  callMs: number;
}

export const DEFAULT_MCP_TIMEOUTS: Readonly<McpTimeouts> = Object.freeze({
  connectMs: 30_000,
  callMs: 120_000,
});

export function loadMcpTimeouts(home: string): { timeouts: McpTimeouts; warnings: string[] } {
  const timeouts = { ...DEFAULT_MCP_TIMEOUTS };
  const path = join(home, "config.json");
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    // A missing or broken config.json is reported by the settings that own the file.
    return { timeouts, warnings: [] };
  }
  const section = isRecord(parsed) ? parsed.mcp : undefined;
  if (section === undefined) return { timeouts, warnings: [] };
  if (!isRecord(section)) return { timeouts, warnings: [`${path}: "mcp" must be an object; using defaults`] };
  const warnings: string[] = [];
  const read = (field: string, set: (ms: number) => void) => {
    const value = section[field];
    if (value === undefined) return;
    if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) set(value);
    else warnings.push(`${path}: mcp.${field} must be a positive integer (milliseconds); using the default`);
  };
  read("connect_timeout_ms", (ms) => {
    timeouts.connectMs = ms;
  });
  read("call_timeout_ms", (ms) => {
    timeouts.callMs = ms;
  });
  return { timeouts, warnings };
}
