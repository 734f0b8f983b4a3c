/**
 * ripgrep opens the files under the (verified) search root by path. A file swapped for a link
 * to somewhere else in the instant between rg's directory read and its open would be read
 * there. So before rg's lines are shown, each file is read again verified (see
 * `verified-open.ts`) and only lines it really holds at those numbers are kept: nothing from
 * another file reaches the model.
 */
import { openForRead } from "../verified-open.ts";
import type { GrepRecord } from "./grep-query.ts";

const CHUNK_BYTES = 64 * 1024;

export interface VerifiedRecords {
  records: GrepRecord[];
  /** Records whose file no longer holds them (changed, swapped, or transcoded by rg). */
  dropped: number;
}

export async function keepVerifiedRecords(records: readonly GrepRecord[]): Promise<VerifiedRecords> {
  const byPath = new Map<string, GrepRecord[]>();
  for (const record of records) {
    const list = byPath.get(record.path);
    if (list) list.push(record);
    else byPath.set(record.path, [record]);
  }
  const held = new Set<GrepRecord>();
  for (const [path, list] of byPath) {
    const lines = await verifiedLines(path, new Set(list.map((r) => r.line)));
    if (lines === null) continue;
    for (const record of list) {
      const actual = lines.get(record.line);
      if (actual !== undefined && sameLine(actual, record.text, record.line)) held.add(record);
    }
  }
  const kept = records.filter((r) => held.has(r));
  return { records: kept, dropped: records.length - kept.length };
}

/** rg strips a UTF-8 byte-order mark; the raw first line still has it. */
function sameLine(actual: string, reported: string, line: number): boolean {
  if (line !== 1) return actual === reported;
  return actual.replace(/^\ufeff/, "") === reported.replace(/^\ufeff/, "");
}

/** The wanted lines (1-based) of the file, read verified, or null when it cannot be. */
async function verifiedLines(path: string, wanted: Set<number>): Promise<Map<number, string> | null> {
  const last = Math.max(...wanted);
  const found = new Map<number, string>();
  let file: Awaited<ReturnType<typeof openForRead>>;
  try {
    file = await openForRead(path);
  } catch {
    return null;
  }
  try {
    if (!(await file.stat()).isFile()) return null;
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    const buffer = new Uint8Array(CHUNK_BYTES);
    let line = 1;
    let pending: Uint8Array[] = [];
    const finish = (bytes: Uint8Array[]) => {
      if (wanted.has(line)) found.set(line, decoder.decode(concat(bytes)).replace(/\r$/, ""));
      line += 1;
    };
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      let start = 0;
      for (let i = 0; i < bytesRead && line <= last; i++) {
        if (buffer[i] !== 0x0a) continue;
        // Only wanted lines are kept in memory; the others are just counted.
        if (wanted.has(line)) pending.push(buffer.slice(start, i));
        finish(pending);
        pending = [];
        start = i + 1;
      }
      if (line > last) break;
      if (wanted.has(line)) pending.push(buffer.slice(start, bytesRead));
    }
    if (line <= last && pending.length > 0) finish(pending);
    return found;
  } catch {
    return null;
  } finally {
    await file.close();
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
