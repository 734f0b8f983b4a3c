/**
 * The daemon's fast path for a runtime's hottest line, `message_delta` (one per streamed token):
 * a line in exactly the shape our runtime's encoder writes is recognised and checked by one
 * native regular expression instead of `JSON.parse` and the event's schema check, forwarded
 * with the routing spliced in (src/daemon/broker/routed-line.ts), and folded into the snapshot
 * only when something reads it (src/daemon/broker/pending-deltas.ts).
 *
 * What the expression accepts is a valid `MessageDeltaEvent` and well-formed JSON, in the
 * runtime's key order (`{...delta, seq}`, the optional fields in their schema order):
 *
 * - every string is a JSON string: no raw `"`, `\` or control character, only JSON's escapes;
 *   `message_id` is not empty (the schema's minLength 1: an escape is one character or more);
 * - `block_index` and `seq` are integers ≥ 0 of at most 15 digits, without a leading zero:
 *   exact as numbers, and `String(seq)` prints those digits back (the splice relies on it);
 * - `kind` is one of the schema's literals; no `agent_id` (re-encoding would overwrite the
 *   runtime's own, a splice would not), no other key, no whitespace;
 * - no raw U+2028/U+2029 (our encoder escapes them for line-oriented readers).
 *
 * Anything else — another shape, an invalid event, bad JSON — takes the ordinary path (parse,
 * check; an invalid line is dropped there as before).
 */

const CHARS = String.raw`[^"\\\u0000-\u001f\u2028\u2029]*`;
const ESCAPE = String.raw`\\(?:["\\/bfnrt]|u[0-9A-Fa-f]{4})`;
/** A JSON string, unrolled (no nested quantifier can match the same text two ways). */
const STRING = `"${CHARS}(?:${ESCAPE}${CHARS})*"`;
const NON_EMPTY_STRING = `"(?!")${CHARS}(?:${ESCAPE}${CHARS})*"`;
const INTEGER = "(?:0|[1-9][0-9]{0,14})";

/** The line's object; `kinds`, the `kind` literals it may have. */
const deltaObject = (kinds: string) =>
  `\\{"type":"message_delta","message_id":${NON_EMPTY_STRING},"block_index":${INTEGER},` +
  `"kind":"(?:${kinds})"(?:,"text_delta":${STRING})?(?:,"tool_call_id":${STRING})?` +
  `(?:,"name":${STRING})?(?:,"args_delta":${STRING})?,"seq":${INTEGER}\\}`;
const DELTA_LINE = new RegExp(`^${deltaObject("text|thinking|tool_call")}$`);
/**
 * A run of such lines inside a chunk's text, from `lastIndex`, each up to and with its LF (the
 * last one's optional at the text's end), one expression per activity phase (the kind is
 * checked with the line, not after it): sticky, so the run is checked in place by one native
 * call, not one call per line (which cost the daemon ~0.5 µs a line before the JIT warmed up).
 */
const THINKING_RUN_AT = new RegExp(`(?:${deltaObject("thinking")}(?:\\n|$))+`, "y");
const STREAMING_RUN_AT = new RegExp(`(?:${deltaObject("text|tool_call")}(?:\\n|$))+`, "y");
/**
 * Characters of a chunk's text one run is checked over at most: the expression keeps a frame
 * per line it repeats, so its work grows faster than the run past a few MiB; a longer run is
 * taken in parts.
 */
const RUN_WINDOW_CHARS = 1024 * 1024;

const PREFIX = '{"type":"message_delta","message_id":"';
export const SEQ_MEMBER = ',"seq":';

/**
 * Where the line's `,"seq":` member starts when `line` is a `message_delta` the fast path takes
 * (see above); -1 otherwise.
 */
export function deltaLineSeqAt(line: string): number {
  if (!line.startsWith(PREFIX) || !DELTA_LINE.test(line)) return -1;
  // The last `,"seq":` is the member: inside a JSON string a `"` is always escaped.
  return line.lastIndexOf(SEQ_MEMBER);
}

/**
 * Where the run of lines from `from` in `text` (a chunk's complete lines) ends, after the last
 * one's LF or at the text's end: the lines, one after another, that `deltaLineSeqAt` takes and
 * whose kind is thinking (`thinking`) or text or tool_call (not `thinking`); -1 when the line
 * at `from` is not one. Each line's `,"seq":` member is the last one before its LF. A run past
 * `RUN_WINDOW_CHARS` may end early, at a line's end; the next call takes the rest.
 */
export function deltaRunEnd(text: string, from: number, thinking: boolean): number {
  if (!text.startsWith(PREFIX, from)) return -1;
  let window = text;
  if (text.length - from > RUN_WINDOW_CHARS) {
    const cut = text.lastIndexOf("\n", from + RUN_WINDOW_CHARS);
    // Up to and with an LF, so the window's last line is whole (a longer line: the whole text).
    if (cut > from) window = text.slice(0, cut + 1);
  }
  const run = thinking ? THINKING_RUN_AT : STREAMING_RUN_AT;
  run.lastIndex = from;
  return run.test(window) ? run.lastIndex : -1;
}

const KIND_MEMBER = ',"kind":"';

/**
 * Whether a line `deltaLineSeqAt` accepted is a thinking delta (the activity phase). Its first
 * `,"kind":"` is the key (a `"` in a string's content is escaped), right after the message id
 * and block index; the kinds differ at their second letter (t·e·xt, t·h·inking, t·o·ol_call).
 */
export function isThinkingDeltaLine(line: string): boolean {
  return line.charCodeAt(line.indexOf(KIND_MEMBER, PREFIX.length) + KIND_MEMBER.length + 1) === 0x68;
}

const MESSAGE_ID_END = '","block_index":';

/**
 * The `message_id` of a line `deltaLineSeqAt` accepted, read without parsing the line: its
 * string ends at the first `","block_index":` (a `"` in its content is escaped).
 */
export function deltaLineMessageId(line: string): string | undefined {
  const raw = line.slice(PREFIX.length, line.indexOf(MESSAGE_ID_END, PREFIX.length));
  if (!raw.includes("\\")) return raw;
  const value: unknown = JSON.parse(`"${raw}"`);
  return typeof value === "string" ? value : undefined;
}
