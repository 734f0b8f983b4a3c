/**
 * Server-sent events of a streaming response body (the three provider APIs stream SSE). The
 * SDKs' own decoders walk every byte in JavaScript, which was ~40% of a long turn's CPU; this
 * one splits on the native string search and costs about what the stream itself does
 * (docs/benchmarks.md, "Side by side with the peers"). The SDKs still build and send the
 * request and turn an HTTP error status into their error objects; only the body is read here.
 *
 * Lines end at LF, CRLF or a lone CR (the SSE spec's three). An event's `data:` lines are joined by LF and
 * it is dispatched at a blank line; comments, `id:` and `retry:` are ignored. A line longer than
 * MAX_LINE_CHARS is an error, so a server that never ends a line cannot grow memory unbounded.
 */

import { isRecord } from "../support/is-record.ts";
import { StreamErrorEvent } from "./classify-error.ts";

export interface SseEvent {
  event: string | undefined;
  data: string;
}

export const MAX_LINE_CHARS = 16 * 1024 * 1024;

export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const pending = new SseFields();
  let rest = "";
  for await (const bytes of body) {
    // `rest` is normalized and holds no LF: only the new chunk is normalized and searched, so
    // a long line arriving in many chunks costs linear time (a CR it ends with joins the chunk).
    let head = rest;
    let chunk = decoder.decode(bytes, { stream: true });
    if (head.endsWith("\r")) {
      head = head.slice(0, -1);
      chunk = `\r${chunk}`;
    }
    const text = head + lfOnly(chunk);
    let start = 0;
    for (let nl = text.indexOf("\n", head.length); nl >= 0; nl = text.indexOf("\n", start)) {
      const event = pending.line(text.slice(start, nl));
      start = nl + 1;
      if (event) yield event;
    }
    rest = start === 0 ? text : text.slice(start);
    if (rest.length > MAX_LINE_CHARS) {
      throw new StreamErrorEvent(
        `the server sent a line of over ${MAX_LINE_CHARS} characters without ending it`,
        "invalid_stream",
        undefined,
      );
    }
  }
  // A last line or event the server did not end still counts, as the SDKs have it.
  rest += decoder.decode();
  if (rest !== "") pending.line(rest.endsWith("\r") ? rest.slice(0, -1) : rest);
  const event = pending.line("");
  if (event) yield event;
}

/**
 * CRLF and lone CR as LF. A CR that ends the text stays, since its LF may start the next
 * chunk; most servers send LF only, and then this is one native search.
 */
function lfOnly(text: string): string {
  if (!text.includes("\r")) return text;
  const crLast = text.endsWith("\r");
  const body = (crLast ? text.slice(0, -1) : text).replace(/\r\n?/g, "\n");
  return crLast ? `${body}\r` : body;
}

/** The fields of the event being read; a blank line hands it over. */
class SseFields {
  private event: string | undefined;
  private data: string | undefined;

  line(line: string): SseEvent | undefined {
    if (line === "") {
      const ended = this.data === undefined ? undefined : { event: this.event, data: this.data };
      this.event = undefined;
      this.data = undefined;
      return ended;
    }
    const colon = line.indexOf(":");
    if (colon === 0) return undefined; // a comment
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1);
    if (field === "data") this.data = this.data === undefined ? value : `${this.data}\n${value}`;
    else if (field === "event") this.event = value;
    return undefined;
  }
}

/** An event's data as JSON; a server that sends something else is a stream error, not a crash. */
function parseEventData(event: SseEvent): unknown {
  try {
    return JSON.parse(event.data);
  } catch {
    throw new StreamErrorEvent(
      `the server sent an event that is not JSON: ${event.data.slice(0, 120)}`,
      "invalid_stream",
      undefined,
    );
  }
}

/**
 * The JSON events of an SSE body, as the SDKs read them: `[DONE]` ends the stream; an `error`
 * event, or data whose top level is `{ error }`, is the API's failure mid-stream. `keep` says
 * which events the caller's translator takes (it reads their fields defensively).
 */
export async function* jsonEvents<T>(
  body: ReadableStream<Uint8Array>,
  keep: (value: Record<string, unknown>) => value is Record<string, unknown> & T,
): AsyncGenerator<Record<string, unknown> & T> {
  for await (const event of sseEvents(body)) {
    if (event.data === "[DONE]") return;
    if (event.data === "" || event.event === "ping") continue;
    const value = parseEventData(event);
    if (!isRecord(value)) continue;
    if (keep(value)) yield value;
    else if (isRecord(value.error)) throw streamError(value.error);
    else if (event.event === "error") throw streamError(value);
  }
}

function streamError(error: Record<string, unknown>): StreamErrorEvent {
  const text = (field: string) => (typeof error[field] === "string" ? String(error[field]) : undefined);
  return new StreamErrorEvent(
    text("message") ?? "the server reported an error mid-stream",
    text("type"),
    text("code"),
  );
}
