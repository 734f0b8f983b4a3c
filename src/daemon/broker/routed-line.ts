/**
 * The daemon forwards a runtime's event as the line the runtime wrote, with the daemon's `seq`
 * and the routing `agent_id` spliced in: no `JSON.stringify` per event. The line was already
 * parsed and checked against its event's schema (an invalid one never gets here), and the splice
 * is used only where it is provably the same message as re-encoding the parsed event:
 *
 * - the runtime's encoder writes `seq` last (`{...event, seq}`), so a checked line ends with
 *   `,"seq":<digits>}`. Those bytes are the object's last member: the quote after the comma is
 *   not escaped, so it opens a string, and only a key is followed by `:`;
 * - that is the line's only `"seq":` (no second top-level `seq` for a first-key-wins parser, no
 *   nested one to confuse), and its number is the parsed `seq`;
 * - the runtime sent no `agent_id` of its own (re-encoding overwrites one, a splice would not);
 * - no raw U+2028/U+2029 (our encoder escapes them for line-oriented readers).
 *
 * Anything else (another key order, whitespace, a hand-written line) is re-encoded from the
 * parsed event: slower, never wrong.
 */
import { SEQ_MEMBER } from "../../wire/delta-line.ts";
import { EncodedMessage } from "./encoded-message.ts";

const SEQ_KEY = '"seq":';

/** What the splice reads of the parsed event: its routing fields as the runtime sent them. */
export interface RuntimeRouting {
  agent_id?: string;
  seq?: number;
}

export class RoutedLines {
  /** `,"agent_id":"…"}`: how every forwarded message of this agent ends, encoded once. */
  private readonly tail: string;
  private readonly tailBytes: number;

  constructor(agentId: string) {
    this.tail = `,"agent_id":${JSON.stringify(agentId)}}`;
    this.tailBytes = Buffer.byteLength(this.tail);
  }

  /**
   * `line` (the runtime's text of `event`, without its LF) with `seq` and this agent's id in
   * place of the runtime's `seq`; undefined when the line is not in the shape the splice is
   * proven for. Only native string searches touch the line (a per-character loop in JS would
   * first copy the decoder's substring out), and its UTF-8 size is summed from its parts, so
   * the spliced string is not flattened here.
   */
  splice(line: string, event: RuntimeRouting, seq: number): EncodedMessage | undefined {
    if (event.agent_id !== undefined || event.seq === undefined) return undefined;
    if (!line.startsWith("{") || !line.endsWith("}")) return undefined;
    const member = line.lastIndexOf(SEQ_MEMBER);
    if (member === -1 || line.indexOf(SEQ_KEY) !== member + 1) return undefined;
    // Digits only, no sign, exponent or leading zero: exactly how the parsed seq prints.
    if (line.slice(member + SEQ_MEMBER.length, -1) !== String(event.seq)) return undefined;
    if (line.includes("\u2028") || line.includes("\u2029")) return undefined;
    const head = line.slice(0, member);
    const stamp = `${SEQ_MEMBER}${seq}`;
    return EncodedMessage.ofLine(
      `${head}${stamp}${this.tail}\n`,
      Buffer.byteLength(head) + stamp.length + this.tailBytes + 1,
    );
  }

  /**
   * The splice of a line already known to be in the proven shape, its `,"seq":` member at
   * `member` (a `message_delta` line the fast path took, src/wire/delta-line.ts): the message's
   * JSON text, no newline.
   */
  spliceJson(line: string, member: number, seq: number): string {
    return `${line.slice(0, member)}${SEQ_MEMBER}${seq}${this.tail}`;
  }

  /**
   * The UTF-8 size of `json`, `spliceJson(line, member, …)`; a line that came as ASCII is not
   * counted (a string's length needs no flattening, counting its bytes does).
   */
  splicedBytes(json: string, line: string, member: number, ascii: boolean): number {
    const head = ascii ? member : Buffer.byteLength(line.slice(0, member));
    return head + json.length - member - this.tail.length + this.tailBytes;
  }
}
