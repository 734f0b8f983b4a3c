/**
 * Classifies one line of each tool's output stream for the benchmark's lean client (pure):
 * text deltas are recognised from their bytes and counted, other lines are parsed.
 *   Shard: JSONL on stdio (or the daemon socket), `{"type":"message_delta",…,"kind":"text",…}`.
 *   pi (`--mode rpc`): JSONL, `{"type":"message_update","assistantMessageEvent":{"type":"text_delta",…`.
 *   opencode (`GET /event`): SSE `data: {"id":…,"type":"message.part.delta",…,"field":"text",…}`.
 */

export type StreamItem =
  | { kind: "delta" }
  | { kind: "event"; event: { type: string } & Record<string, unknown> }
  | { kind: "skip" };

const SKIP: StreamItem = { kind: "skip" };
const DELTA: StreamItem = { kind: "delta" };

function parseEvent(text: string): StreamItem {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return SKIP;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return SKIP;
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string") return SKIP;
  return { kind: "event", event: value as { type: string } & Record<string, unknown> };
}

function startsWith(line: Buffer, prefix: Buffer): boolean {
  return line.length >= prefix.length && line.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;
}

const SHARD_DELTA = Buffer.from('{"type":"message_delta"');
const SHARD_TEXT = Buffer.from('"kind":"text"');

export function shardLine(line: Buffer): StreamItem {
  if (startsWith(line, SHARD_DELTA)) return line.includes(SHARD_TEXT) ? DELTA : SKIP;
  return parseEvent(line.toString("utf8"));
}

const PI_UPDATE = Buffer.from('{"type":"message_update"');
const PI_EVENT_TYPE = Buffer.from('"assistantMessageEvent":{"type":"');
const PI_TEXT_DELTA = Buffer.from('text_delta"');

export function piLine(line: Buffer): StreamItem {
  if (startsWith(line, PI_UPDATE)) {
    // Only the delta's type matters; the rest of the line is the whole partial message.
    const at = line.indexOf(PI_EVENT_TYPE);
    if (at < 0) return SKIP;
    const typeAt = at + PI_EVENT_TYPE.length;
    const isText =
      line.compare(PI_TEXT_DELTA, 0, PI_TEXT_DELTA.length, typeAt, typeAt + PI_TEXT_DELTA.length) === 0;
    return isText ? DELTA : SKIP;
  }
  return parseEvent(line.toString("utf8"));
}

const SSE_DATA = Buffer.from("data: ");
const OPENCODE_DELTA = Buffer.from('"type":"message.part.delta"');
const OPENCODE_TEXT_FIELD = Buffer.from('"field":"text"');
/** The event id precedes the type; it is a short token, so the type sits in the first bytes. */
const OPENCODE_TYPE_WITHIN = 80;

export function opencodeSseLine(line: Buffer): StreamItem {
  if (!startsWith(line, SSE_DATA)) return SKIP;
  const deltaAt = line.indexOf(OPENCODE_DELTA);
  if (deltaAt >= 0 && deltaAt < OPENCODE_TYPE_WITHIN)
    return line.includes(OPENCODE_TEXT_FIELD) ? DELTA : SKIP;
  return parseEvent(line.toString("utf8", SSE_DATA.length));
}

/** opencode's end of a turn: its session went idle (either event form). */
export function opencodeSessionIdle(
  event: { type: string } & Record<string, unknown>,
  sessionId: string,
): boolean {
  const props = event.properties as { sessionID?: unknown; status?: { type?: unknown } } | undefined;
  if (props?.sessionID !== sessionId) return false;
  if (event.type === "session.idle") return true;
  return event.type === "session.status" && props.status?.type === "idle";
}

/** opencode's report of a failed turn, if this event is one for the session. */
export function opencodeSessionError(
  event: { type: string } & Record<string, unknown>,
  sessionId: string,
): string | undefined {
  if (event.type !== "session.error") return undefined;
  const props = event.properties as { sessionID?: unknown; error?: unknown } | undefined;
  if (props?.sessionID !== undefined && props.sessionID !== sessionId) return undefined;
  return JSON.stringify(props?.error ?? props ?? {}).slice(0, 300);
}
