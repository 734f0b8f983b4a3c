/**
 * Lists sessions (and forks) newest first. Listing reads each file without locking or
 * repairing it and parses only what it shows — the header, lines up to the first user
 * message (title) and the last line (updated_at) — so it stays fast for large sessions;
 * full validation happens on open. A session whose header or scanned lines are corrupt
 * is skipped and reported, never fatal to the listing.
 */
import { closeSync, fstatSync, openSync } from "node:fs";
import { resolve } from "node:path";
import { describeError } from "../support/describe-error.ts";
import { isRecord } from "../support/is-record.ts";
import type { SessionEntry, SessionHeader } from "../types/session-entries.ts";
import { countLines, forEachLine, lastLines } from "./jsonl-lines.ts";
import { allSessionFiles } from "./session-directory.ts";
import { checkEntry, checkHeader } from "./session-line-checks.ts";
import { logWarning, type WarningSink } from "./session-warning.ts";

export interface SessionSummary {
  session_id: string;
  title: string;
  cwd: string;
  created_at: number;
  updated_at: number;
  entry_count: number;
  fork?: { fork_id: string; source_session_id: string; source_entry_id: string };
}

const TITLE_CHARS = 80;

export function titleOf(entry: SessionEntry): string | null {
  if (entry.type !== "message" || entry.message.role !== "user") return null;
  if (entry.message.content.some((b) => b.type === "tool_result")) return null;
  const text = entry.message.content
    .flatMap((b) => (b.type === "text" ? [b.text] : []))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  if (text === "") return null;
  return text.length > TITLE_CHARS ? `${text.slice(0, TITLE_CHARS - 1).trimEnd()}…` : text;
}

function tryParse(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function summarize(path: string): SessionSummary | string {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    let header: SessionHeader | null = null;
    let title: string | null = null;
    let problem: string | null = null;
    let lineNo = 0;
    // Header, then entries up to the first user message with text. A line that does not parse
    // is corruption unless it is the file's last line (possibly a write in progress).
    let unparsed = 0;
    forEachLine(fd, (line) => {
      lineNo++;
      if (unparsed) {
        problem = `line ${unparsed}: not valid JSON`;
        return false;
      }
      const value = tryParse(line);
      if (lineNo === 1) {
        const checked = value === undefined ? null : checkHeader(value);
        if (checked?.ok) header = checked.value;
        else problem = `line 1: ${checked ? checked.problem : "header is not valid JSON"}`;
        return problem === null;
      }
      if (value === undefined) {
        unparsed = lineNo;
        return true;
      }
      // A malformed entry gives no title here; opening the session reports it.
      const entry = checkEntry(value);
      title = entry.ok ? titleOf(entry.value) : null;
      return title === null;
    });
    if (problem) return problem;
    if (lineNo === 0 || header === null) return "line 1: missing header";
    const h: SessionHeader = header;

    let updatedAt = h.created_at;
    for (const line of lastLines(fd, size).slice(0, 2)) {
      const parsed = tryParse(line);
      const ts = isRecord(parsed) ? parsed.ts : undefined;
      if (typeof ts === "number") {
        // A fork's copied entries keep their original ts; the fork itself is as new as its creation.
        updatedAt = Math.max(ts, h.created_at);
        break;
      }
    }
    const summary: SessionSummary = {
      session_id: h.session_id,
      title: title ?? "(untitled)",
      cwd: h.cwd,
      created_at: h.created_at,
      updated_at: updatedAt,
      entry_count: countLines(fd) - 1,
    };
    if (h.fork) summary.fork = h.fork;
    return summary;
  } finally {
    closeSync(fd);
  }
}

/** Sessions under `home`, newest first; with `cwd`, only those of that project. */
export function listSessions(
  home: string,
  cwd?: string,
  onWarning: WarningSink = logWarning,
): SessionSummary[] {
  const project = cwd === undefined ? undefined : resolve(cwd);
  const out: SessionSummary[] = [];
  for (const path of allSessionFiles(home)) {
    let result: SessionSummary | string;
    try {
      result = summarize(path);
    } catch (err) {
      result = `cannot read: ${describeError(err)}`;
    }
    if (typeof result === "string") {
      onWarning({ kind: "session_skipped", message: `${path} ${result}` });
      continue;
    }
    if (project === undefined || result.cwd === project) out.push(result);
  }
  return out.sort((a, b) => b.updated_at - a.updated_at || b.created_at - a.created_at);
}
