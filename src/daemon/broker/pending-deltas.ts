/**
 * `message_delta` lines the daemon forwarded unparsed (src/wire/delta-line.ts) and has not yet
 * folded into the agent's snapshot. Most never need folding: the `message_complete` of their
 * message or the `turn_end` drops the streaming message they build. Whatever reads the snapshot
 * before then (an attach's `sync`, any other event) folds them first, so every client still gets
 * the exact snapshot; past `MAX_PENDING_CHARS` they are folded too, so the lines held stay bounded
 * (the snapshot holds their text either way). A run of them written as bytes (./delta-run.ts)
 * is held as those bytes, one entry, and read as lines only when folded.
 */
import type { AgentSnapshot } from "../../snapshot/agent-snapshot.ts";
import { applyDeltas } from "../../snapshot/streaming-message.ts";
import type { DeltaKind, MessageDeltaEvent } from "../../types/stream-events.ts";
import { deltaLineMessageId, SEQ_MEMBER } from "../../wire/delta-line.ts";

/** Characters of unfolded lines an agent may hold (~10,000 one-token deltas). */
export const MAX_PENDING_CHARS = 1024 * 1024;

const utf8 = new TextDecoder();
const LF = 0x0a;

export class PendingDeltas {
  /** Lines, and runs of lines as their bytes (each line with its LF). */
  private lines: (string | Uint8Array)[] = [];
  private chars = 0;
  /** The daemon `seq` of the newest line (they are consecutive: any other event folds first). */
  private lastSeq = 0;

  get size(): number {
    return this.lines.length;
  }

  /** Holds one line stamped `seq`; true when the lines held are over the bound (fold them). */
  push(line: string, seq: number): boolean {
    this.lines.push(line);
    this.chars += line.length;
    this.lastSeq = seq;
    return this.chars > MAX_PENDING_CHARS;
  }

  /** Holds a run of lines (their bytes, each with its LF), the last stamped `lastSeq`; as `push`. */
  pushRun(bytes: Uint8Array, lastSeq: number): boolean {
    this.lines.push(bytes);
    this.chars += bytes.length;
    this.lastSeq = lastSeq;
    return this.chars > MAX_PENDING_CHARS;
  }

  /** The message the newest line streams: the one the folded streaming message would be. */
  lastMessageId(): string | undefined {
    const last = this.lines.at(-1);
    if (last === undefined) return undefined;
    if (typeof last === "string") return deltaLineMessageId(last);
    // The newest line of a run: after the LF before the run's final one.
    const start = last.lastIndexOf(LF, last.length - 2) + 1;
    return deltaLineMessageId(utf8.decode(last.subarray(start, last.length - 1)));
  }

  /** `snapshot` with the lines folded in, as `applyEvent` would have, one line at a time; none held after. */
  foldInto(snapshot: AgentSnapshot): AgentSnapshot {
    const merger = new DeltaMerger();
    for (const entry of this.lines) {
      if (typeof entry === "string") merger.line(entry);
      else merger.run(entry);
    }
    const deltas = merger.finish();
    const lastSeq = this.lastSeq;
    this.clear();
    const streaming = applyDeltas(snapshot.streaming_message, deltas);
    const next: AgentSnapshot = { ...snapshot, last_seq: lastSeq };
    if (streaming !== undefined) next.streaming_message = streaming;
    return next;
  }

  clear(): void {
    this.lines = [];
    this.chars = 0;
  }
}

/** `"text_delta":"` of a checked line can only be that key (a `"` in a string's content is escaped). */
const TEXT_MEMBER = ',"text_delta":"';
const SEQ_BYTES = Buffer.from(SEQ_MEMBER);
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The held lines as deltas, a run of text deltas to one block merged into one (folding that is
 * the same as folding each): a line that starts like the one before it up to its `text_delta`
 * (same message, block and kind) and has nothing after that text adds only the text, read
 * without parsing the line. A run's lines are read in its bytes (ASCII: ./delta-run.ts), their
 * texts copied into one buffer: no string per line and no decoded copy of the run, which on a
 * long turn were most of the memory the daemon touched.
 */
class DeltaMerger {
  private readonly deltas: MessageDeltaEvent[] = [];
  private merging: MessageDeltaEvent | undefined;
  private prefix = "";
  private prefixBytes: Buffer = Buffer.alloc(0);
  /** The merged texts, in order; bytes taken from runs wait in `textBytes` until a string joins. */
  private texts: string[] = [];
  private textBytes: Buffer = Buffer.allocUnsafe(4096);
  private textBytesLength = 0;
  private merged = 0;

  line(line: string): void {
    if (this.merging && line.startsWith(this.prefix)) {
      const text = textAfter(line, this.prefix.length);
      if (text !== undefined) {
        this.flushTextBytes();
        this.texts.push(text);
        this.merged++;
        return;
      }
    }
    this.start(line);
  }

  run(bytes: Uint8Array): void {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    let at = 0;
    while (at < buffer.length) {
      const lf = buffer.indexOf(LF, at);
      const end = lf === -1 ? buffer.length : lf;
      if (!this.mergedFromBytes(buffer, at, end)) this.start(utf8.decode(buffer.subarray(at, end)));
      at = end + 1;
    }
  }

  finish(): MessageDeltaEvent[] {
    this.close();
    return this.deltas;
  }

  /** The line `[from, end)` of a run added to the merge by its text alone; false when it cannot be. */
  private mergedFromBytes(buffer: Buffer, from: number, end: number): boolean {
    if (!this.merging) return false;
    const prefix = this.prefixBytes;
    const textStart = from + prefix.length;
    if (textStart > end || buffer.compare(prefix, 0, prefix.length, from, textStart) !== 0) return false;
    const textEnd = buffer.lastIndexOf(SEQ_BYTES, end) - 1;
    if (textEnd < textStart) return false;
    for (let i = textStart; i < textEnd; i++) {
      const byte = buffer[i];
      if (byte === QUOTE) return false;
      if (byte === BACKSLASH) {
        const text = textAfter(utf8.decode(buffer.subarray(from, end)), prefix.length);
        if (text === undefined) return false;
        this.flushTextBytes();
        this.texts.push(text);
        this.merged++;
        return true;
      }
    }
    const length = textEnd - textStart;
    if (this.textBytesLength + length > this.textBytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.textBytes.length * 2, this.textBytesLength + length));
      this.textBytes.copy(grown, 0, 0, this.textBytesLength);
      this.textBytes = grown;
    }
    this.textBytesLength += buffer.copy(this.textBytes, this.textBytesLength, textStart, textEnd);
    this.merged++;
    return true;
  }

  /** A line that does not continue the merge: parsed, and the start of the next merge if it can be. */
  private start(line: string): void {
    this.close();
    const delta = parseDelta(line);
    if (!delta) return;
    this.deltas.push(delta);
    const at = line.indexOf(TEXT_MEMBER);
    if (delta.text_delta === undefined || delta.tool_call_id !== undefined || delta.name !== undefined)
      return;
    if (delta.args_delta !== undefined || at === -1) return;
    this.merging = delta;
    this.prefix = line.slice(0, at + TEXT_MEMBER.length);
    this.prefixBytes = Buffer.from(this.prefix);
    this.texts = [delta.text_delta];
  }

  private flushTextBytes(): void {
    if (this.textBytesLength === 0) return;
    this.texts.push(utf8.decode(this.textBytes.subarray(0, this.textBytesLength)));
    this.textBytesLength = 0;
  }

  private close(): void {
    this.flushTextBytes();
    if (this.merging && this.merged > 0) this.merging.text_delta = this.texts.join("");
    this.merging = undefined;
    this.texts = [];
    this.merged = 0;
  }
}

/**
 * The text of a checked delta line whose `text_delta` string starts at `from` and is its last
 * member before `seq`; undefined when another member follows it (or its text has a `"`).
 */
function textAfter(line: string, from: number): string | undefined {
  const end = line.lastIndexOf(SEQ_MEMBER) - 1;
  if (end < from) return undefined;
  const raw = line.slice(from, end);
  if (raw.includes('"')) return undefined;
  if (!raw.includes("\\")) return raw;
  const value: unknown = JSON.parse(`"${raw}"`);
  return typeof value === "string" ? value : undefined;
}

/**
 * A held line as the event it is. The fast path's expression accepted it, so it is a valid
 * `message_delta` and JSON.parse cannot fail; the fields are still read with their types
 * checked (a line that fails is left out, as the ordinary path would drop it).
 */
function parseDelta(line: string): MessageDeltaEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  return readDelta(value);
}

function readDelta(value: unknown): MessageDeltaEvent | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  if (!("message_id" in value) || typeof value.message_id !== "string") return undefined;
  if (!("block_index" in value) || typeof value.block_index !== "number") return undefined;
  if (!("kind" in value) || !isDeltaKind(value.kind)) return undefined;
  const delta: MessageDeltaEvent = {
    type: "message_delta",
    message_id: value.message_id,
    block_index: value.block_index,
    kind: value.kind,
  };
  if ("text_delta" in value && typeof value.text_delta === "string") delta.text_delta = value.text_delta;
  if ("tool_call_id" in value && typeof value.tool_call_id === "string")
    delta.tool_call_id = value.tool_call_id;
  if ("name" in value && typeof value.name === "string") delta.name = value.name;
  if ("args_delta" in value && typeof value.args_delta === "string") delta.args_delta = value.args_delta;
  return delta;
}

function isDeltaKind(kind: unknown): kind is DeltaKind {
  return kind === "text" || kind === "thinking" || kind === "tool_call";
}
