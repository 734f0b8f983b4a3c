/**
 * Parses session.jsonl: header line, then one entry per line, each entry's parent_id the
 * previous entry's id. A torn final line — no trailing LF, or not JSON — is
 * reported for truncation; anything else that does not parse is SESSION_CORRUPT with its line.
 */
import { closeSync, fstatSync, openSync } from "node:fs";
import type { SessionEntry, SessionHeader } from "../contracts/session-store.ts";
import { forEachLine } from "./jsonl-lines.ts";

export interface TornTail {
  /** 1-based line number of the torn line. */
  line: number;
  /** Byte offset where the torn line starts: the file's valid length. */
  offset: number;
  bytes: number;
  reason: string;
}

export interface ParsedSession {
  header: SessionHeader;
  entries: SessionEntry[];
  tornTail: TornTail | null;
}

export type ParseResult =
  | { ok: true; session: ParsedSession }
  | { ok: false; error: { code: "SESSION_CORRUPT"; message: string } };

function corrupt(path: string, line: number, reason: string): ParseResult {
  return { ok: false, error: { code: "SESSION_CORRUPT", message: `${path} line ${line}: ${reason}` } };
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function headerProblem(value: unknown): string | null {
  if (typeof value !== "object" || value === null) return "header is not a JSON object";
  const h = value as Partial<SessionHeader>;
  if (h.type !== "session") return 'header "type" is not "session"';
  if (h.version !== 1) return `unsupported session version ${JSON.stringify(h.version)}`;
  if (typeof h.session_id !== "string" || h.session_id === "") return "header has no session_id";
  if (typeof h.cwd !== "string") return "header has no cwd";
  if (typeof h.created_at !== "number") return "header has no created_at";
  return null;
}

function isMessage(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const m = value as { role?: unknown; content?: unknown };
  return (m.role === "user" || m.role === "assistant") && Array.isArray(m.content);
}

/** Shape check per entry type: enough to trust the fields the store reads, cheap per line. */
function entryProblem(value: unknown, expectedParent: string | null): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "entry is not a JSON object";
  const e = value as Record<string, unknown>;
  if (typeof e.id !== "string" || e.id === "") return "entry has no id";
  if (typeof e.ts !== "number") return "entry has no ts";
  if (e.parent_id !== expectedParent) {
    return `parent_id ${JSON.stringify(e.parent_id)} does not match the previous entry ${JSON.stringify(expectedParent)}`;
  }
  switch (e.type) {
    case "message":
    case "tool_result":
      return isMessage(e.message) ? null : `${e.type} entry has no valid message`;
    case "queued_input":
      return isMessage(e.message) && (e.behavior === "steer" || e.behavior === "follow_up")
        ? null
        : "queued_input entry needs a message and a behavior";
    case "queue_dropped":
      return Array.isArray(e.ids) && e.ids.every((id) => typeof id === "string")
        ? null
        : "queue_dropped entry needs ids";
    case "mode_change":
      return typeof e.mode === "string" ? null : "mode_change entry has no mode";
    case "model_change":
      return typeof e.model === "string" ? null : "model_change entry has no model";
    case "reasoning_change":
      return typeof e.model === "string" && typeof e.effort === "string"
        ? null
        : "reasoning_change entry needs model and effort";
    case "compaction":
      return typeof e.index === "number" &&
        typeof e.summary === "string" &&
        typeof e.first_kept_entry_id === "string" &&
        Array.isArray(e.message_range) &&
        e.message_range.length === 2
        ? null
        : "compaction entry is missing index, summary, first_kept_entry_id or message_range";
    case "checkpoint":
      return typeof e.forkId === "string" && typeof e.sourceSessionId === "string"
        ? null
        : "checkpoint entry is missing its provenance";
    default:
      return `unknown entry type ${JSON.stringify(e.type)}`;
  }
}

/**
 * Parses the session file at `path`, reading it once in chunks (see jsonl-lines.ts) and
 * JSON-parsing each line. Throws only on IO errors.
 */
export function parseSessionFile(path: string): ParseResult {
  const fd = openSync(path, "r");
  try {
    return parseFd(fd, path);
  } finally {
    closeSync(fd);
  }
}

interface ParseState {
  lineNo: number;
  header: SessionHeader | null;
  entries: SessionEntry[];
  parent: string | null;
  /** The last line seen did not parse: fatal if any line follows, a torn tail otherwise. */
  unparsed: { line: number; text: string } | null;
  failure: ParseResult | null;
}

function unparsedProblem(path: string, unparsed: { line: number; text: string }): ParseResult {
  return corrupt(path, unparsed.line, unparsed.text === "" ? "empty line" : "not valid JSON");
}

function parseFd(fd: number, path: string): ParseResult {
  const size = fstatSync(fd).size;
  if (size === 0) return corrupt(path, 1, "missing header (empty file)");
  const st: ParseState = {
    lineNo: 0,
    header: null,
    entries: [],
    parent: null,
    unparsed: null,
    failure: null,
  };

  const read = forEachLine(fd, (line) => {
    const lineNo = ++st.lineNo;
    if (st.unparsed) {
      st.failure = unparsedProblem(path, st.unparsed);
      return false;
    }
    const value = tryParse(line);
    if (lineNo === 1) {
      const problem = value === undefined ? "header is not valid JSON" : headerProblem(value);
      if (problem) st.failure = corrupt(path, 1, problem);
      else st.header = value as SessionHeader;
      return problem === null;
    }
    if (value === undefined) {
      st.unparsed = { line: lineNo, text: line };
      return true;
    }
    const reason = entryProblem(value, st.parent);
    if (reason) {
      st.failure = corrupt(path, lineNo, reason);
      return false;
    }
    const entry = value as SessionEntry;
    st.entries.push(entry);
    st.parent = entry.id;
    return true;
  });
  if (st.failure) return st.failure;
  if (st.header === null) return corrupt(path, 1, "header line is incomplete (no newline)");

  let tornTail: TornTail | null = null;
  const trailing = read.trailingBytes;
  if (trailing > 0) {
    if (st.unparsed) return unparsedProblem(path, st.unparsed);
    const reason = "final line has no trailing newline";
    tornTail = { line: st.lineNo + 1, offset: size - trailing, bytes: trailing, reason };
  } else if (st.unparsed) {
    // The very last line ends in LF but is not JSON: a torn write; truncate it too.
    const bytes = Buffer.byteLength(st.unparsed.text) + 1;
    tornTail = {
      line: st.unparsed.line,
      offset: size - bytes,
      bytes,
      reason: "final line is not valid JSON",
    };
  }
  return { ok: true, session: { header: st.header, entries: st.entries, tornTail } };
}
