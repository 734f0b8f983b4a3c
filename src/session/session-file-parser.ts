/**
 * Parses session.jsonl: header line, then one entry per line, each checked against its
 * schema (session-line-checks.ts) and each entry's parent_id the previous entry's id. A torn
 * final line — no trailing LF, or not JSON — is reported for truncation; anything else that
 * does not parse or check is SESSION_CORRUPT with its line and the failing field.
 */
import { closeSync, fstatSync, openSync } from "node:fs";
import type { SessionEntry, SessionHeader } from "../types/session-entries.ts";
import { forEachLine } from "./jsonl-lines.ts";
import { checkEntry, checkHeader, type LineCheck } from "./session-line-checks.ts";

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

/** The entry's shape (its schema) and its place in the chain. */
function entryProblem(value: unknown, expectedParent: string | null): LineCheck<SessionEntry> {
  const checked = checkEntry(value);
  if (!checked.ok) return checked;
  const { parent_id } = checked.value;
  if (parent_id !== expectedParent) {
    return {
      ok: false,
      problem: `parent_id ${JSON.stringify(parent_id)} does not match the previous entry ${JSON.stringify(expectedParent)}`,
    };
  }
  return checked;
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
      const header = value === undefined ? null : checkHeader(value);
      if (header?.ok) st.header = header.value;
      else st.failure = corrupt(path, 1, header ? header.problem : "header is not valid JSON");
      return st.failure === null;
    }
    if (value === undefined) {
      st.unparsed = { line: lineNo, text: line };
      return true;
    }
    const checked = entryProblem(value, st.parent);
    if (!checked.ok) {
      st.failure = corrupt(path, lineNo, checked.problem);
      return false;
    }
    const entry = checked.value;
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
