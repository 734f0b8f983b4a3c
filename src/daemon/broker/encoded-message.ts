/**
 * A message serialized once for every client that gets it: fan-out of one event to N clients
 * costs one `JSON.stringify` (or none: a runtime's line is forwarded, ./routed-line.ts), not N.
 * The socket transport encodes the lines of one task to UTF-8 together (one buffer per write,
 * not one per message: allocating a buffer per small message cost more than the encoding).
 */
import { encodeJsonLine } from "../../wire/jsonl-encoder.ts";

export class EncodedMessage {
  private jsonCache: string | undefined;
  private byteLengthCache: number | undefined;

  /** `line` is one JSONL line, newline included (U+2028/U+2029 escaped). */
  private constructor(
    readonly line: string,
    byteLength?: number,
  ) {
    this.byteLengthCache = byteLength;
  }

  /** Callers pass a `DaemonMessage` (typed at `ClientConnection.send`, which builds one of these). */
  static of(message: object): EncodedMessage {
    return new EncodedMessage(encodeJsonLine(message));
  }

  /**
   * A line that is already one encoded message (a runtime's checked line, routing spliced in),
   * with its UTF-8 size.
   */
  static ofLine(line: string, byteLength: number): EncodedMessage {
    return new EncodedMessage(line, byteLength);
  }

  /** The line's size in UTF-8 (what the socket's outbound buffer counts against its cap). */
  get byteLength(): number {
    this.byteLengthCache ??= Buffer.byteLength(this.line);
    return this.byteLengthCache;
  }

  /** The JSON text without the newline (one WebSocket text frame). */
  get json(): string {
    this.jsonCache ??= this.line.slice(0, -1);
    return this.jsonCache;
  }
}
