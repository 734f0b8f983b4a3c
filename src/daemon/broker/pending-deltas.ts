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
    const deltas = mergedDeltas(this.lines.flatMap(asLines));
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

/** A held entry as its lines (a run's bytes hold complete lines, each with its LF). */
function asLines(entry: string | Uint8Array): string | string[] {
  return typeof entry === "string" ? entry : utf8.decode(entry.subarray(0, -1)).split("\n");
}

/**
 * The lines as deltas, a run of text deltas to one block merged into one (folding that is the
 * same as folding each): a line that starts like the one before it up to its `text_delta`
 * (same message, block and kind) and has nothing after that text adds only the text, read
 * without parsing the line.
 */
function mergedDeltas(lines: readonly string[]): MessageDeltaEvent[] {
  const deltas: MessageDeltaEvent[] = [];
  let prefix = "";
  let texts: string[] = [];
  let merging: MessageDeltaEvent | undefined;
  const close = () => {
    if (merging && texts.length > 1) merging.text_delta = texts.join("");
  };
  for (const line of lines) {
    if (merging && line.startsWith(prefix)) {
      const text = textAfter(line, prefix.length);
      if (text !== undefined) {
        texts.push(text);
        continue;
      }
    }
    close();
    merging = undefined;
    const delta = parseDelta(line);
    if (!delta) continue;
    deltas.push(delta);
    const at = line.indexOf(TEXT_MEMBER);
    if (delta.text_delta === undefined || delta.tool_call_id !== undefined || delta.name !== undefined)
      continue;
    if (delta.args_delta !== undefined || at === -1) continue;
    merging = delta;
    prefix = line.slice(0, at + TEXT_MEMBER.length);
    texts = [delta.text_delta];
  }
  close();
  return deltas;
}

/** `"text_delta":"` of a checked line can only be that key (a `"` in a string's content is escaped). */
const TEXT_MEMBER = ',"text_delta":"';

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
