/**
 * A message serialized once for every client that gets it: fan-out of one event to N clients
 * costs one `JSON.stringify` (and, for the socket, one UTF-8 encode), not N.
 */
import { encodeJsonLine } from "../../wire/jsonl-encoder.ts";

export class EncodedMessage {
  private bytesCache: Uint8Array | undefined;
  private jsonCache: string | undefined;

  /** `line` is one JSONL line, newline included (U+2028/U+2029 escaped). */
  private constructor(readonly line: string) {}

  /** Callers pass a `DaemonMessage` (typed at `DaemonClient.send`, which builds one of these). */
  static of(message: object): EncodedMessage {
    return new EncodedMessage(encodeJsonLine(message));
  }

  /** The line as UTF-8 (unix socket); callers never mutate it. */
  get bytes(): Uint8Array {
    this.bytesCache ??= Buffer.from(this.line);
    return this.bytesCache;
  }

  /** The JSON text without the newline (one WebSocket text frame). */
  get json(): string {
    this.jsonCache ??= this.line.slice(0, -1);
    return this.jsonCache;
  }
}
