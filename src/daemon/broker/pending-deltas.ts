/**
 * `message_delta` lines the daemon forwarded unparsed (src/wire/delta-line.ts) and has not yet
 * folded into the agent's snapshot. Most never need folding: the `message_complete` of their
 * message or the `turn_end` drops the streaming message they build. Whatever reads the snapshot
 * before then (an attach's `sync`, any other event) folds them first, so every client still gets
 * the exact snapshot; past `MAX_PENDING_CHARS` they are folded too, so the lines held stay bounded
 * (the snapshot holds their text either way). A run of them taken from a chunk of output
 * (./delta-run.ts) is held as the runtime's text of those lines, one entry (a slice of the
 * chunk's decoded text, which exists anyway: nothing is copied), and read line by line only
 * when folded.
 */
import type { AgentSnapshot } from "../../snapshot/agent-snapshot.ts";
import { applyDeltas } from "../../snapshot/streaming-message.ts";
import { escapeRegExp } from "../../support/escape-regexp.ts";
import type { DeltaKind, MessageDeltaEvent } from "../../types/stream-events.ts";
import { deltaLineMessageId, SEQ_MEMBER } from "../../wire/delta-line.ts";

/**
 * Characters of unfolded lines an agent may hold (2 MiB): ~16,000 one-token deltas of our
 * runtime at ~125 characters a line, so most answers end, and their lines are dropped, before
 * any is folded (a fold costs ~0.5 µs a line).
 */
export const MAX_PENDING_CHARS = 2 * 1024 * 1024;

export class PendingDeltas {
  /** Lines, one or a run of them (each ended by an LF, the last one's optional). */
  private lines: string[] = [];
  private chars = 0;
  /** The daemon `seq` of the newest line (they are consecutive: any other event folds first). */
  private lastSeq = 0;

  get size(): number {
    return this.lines.length;
  }

  /**
   * Holds one line, or a run of them (each ended by an LF, the last one's optional), the last
   * stamped `lastSeq`; true when the lines held are over the bound (fold them).
   */
  push(lines: string, lastSeq: number): boolean {
    this.lines.push(lines);
    this.chars += lines.length;
    this.lastSeq = lastSeq;
    return this.chars > MAX_PENDING_CHARS;
  }

  /** The message the newest line streams: the one the folded streaming message would be. */
  lastMessageId(): string | undefined {
    const last = this.lines.at(-1);
    if (last === undefined) return undefined;
    // The newest line: after the last LF but a final one.
    const lines = last.endsWith("\n") ? last.slice(0, -1) : last;
    return deltaLineMessageId(lines.slice(lines.lastIndexOf("\n") + 1));
  }

  /** `snapshot` with the lines folded in, as `applyEvent` would have, one line at a time; none held after. */
  foldInto(snapshot: AgentSnapshot): AgentSnapshot {
    const merger = new DeltaMerger();
    for (const lines of this.lines) merger.add(lines);
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

/**
 * The held lines as deltas, a run of text deltas to one block merged into one (folding that is
 * the same as folding each): a line that starts like the one before it up to its `text_delta`
 * (same message, block and kind) and has nothing after that text adds only the text, read
 * without parsing the line. A run's lines are read in place in its text: no string per line,
 * only each delta's text; where every line of what is left of a run continues the merge, all
 * their texts are read in one native pass (`mergedRest`).
 */
class DeltaMerger {
  private readonly deltas: MessageDeltaEvent[] = [];
  private merging: MessageDeltaEvent | undefined;
  private prefix = "";
  /** A line's end, `","seq":<n>}` and its LF, and the next line's start up to its text. */
  private boundary: RegExp | undefined;
  /** The merged texts, in order. */
  private texts: string[] = [];

  /** One line or several, each ended by an LF (the last one's optional). */
  add(lines: string): void {
    let at = 0;
    // Tried once (a pass over the rest each time would be quadratic in the lines held).
    let triedRest = false;
    while (at < lines.length) {
      if (!triedRest && this.merging && lines.startsWith(this.prefix, at)) {
        triedRest = true;
        if (this.mergedRest(lines, at)) return;
      }
      const lf = lines.indexOf("\n", at);
      const end = lf === -1 ? lines.length : lf;
      if (!this.mergedAt(lines, at, end)) this.start(lines.slice(at, end));
      at = end + 1;
    }
  }

  finish(): MessageDeltaEvent[] {
    this.close();
    return this.deltas;
  }

  /** The line `[from, end)` of `text` added to the merge by its text alone; false when it cannot be. */
  private mergedAt(text: string, from: number, end: number): boolean {
    if (!this.merging || !text.startsWith(this.prefix, from)) return false;
    const delta = textBefore(text, from + this.prefix.length, end);
    if (delta === undefined) return false;
    this.texts.push(delta);
    return true;
  }

  /**
   * The lines of `lines` from `from` to its end added to the merge at once: each line's end and
   * the next one's start are cut out by one replace, which leaves the prefix, every text in
   * order and the last line's end, the texts read as one JSON string. False, with nothing
   * added, when any of those lines does not continue the merge (a line the replace did not
   * join, or a member after its text: the joined text is then not one JSON string).
   */
  private mergedRest(lines: string, from: number): boolean {
    const boundary = this.boundary;
    if (boundary === undefined) return false;
    const joined = lines.slice(from).replace(boundary, "");
    const end = joined.endsWith("\n") ? joined.length - 1 : joined.length;
    if (joined.lastIndexOf("\n", end - 1) !== -1) return false;
    const delta = textBefore(joined, this.prefix.length, end);
    if (delta === undefined) return false;
    this.texts.push(delta);
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
    this.boundary = new RegExp(`","seq":(?:0|[1-9][0-9]*)\\}\\n${escapeRegExp(this.prefix)}`, "g");
    this.texts = [delta.text_delta];
  }

  private close(): void {
    if (this.merging && this.texts.length > 1) this.merging.text_delta = this.texts.join("");
    this.merging = undefined;
    this.texts = [];
  }
}

/**
 * The text in `text` from `from` (where a line's `text_delta` string starts) to the `,"seq":`
 * member before `end` (the line's end): one line's text, or the texts of lines joined into one
 * (`mergedRest`). Undefined when that is not one JSON string ending right at the member (another
 * member follows the text, or one was joined in).
 */
function textBefore(text: string, from: number, end: number): string | undefined {
  const close = text.lastIndexOf(SEQ_MEMBER, end) - 1;
  if (close < from || text.charCodeAt(close) !== 0x22) return undefined;
  const raw = text.slice(from, close);
  if (!raw.includes('"') && !raw.includes("\\")) return raw;
  // A member after a text (its own or a joined line's) leaves a `"` no escape covers.
  try {
    const value: unknown = JSON.parse(`"${raw}"`);
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
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
