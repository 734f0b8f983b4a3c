/**
 * Messages serialized once for every client that gets them: fan-out of one event to N clients
 * costs one `JSON.stringify` (or none: a runtime's line is forwarded, ./routed-line.ts), not N.
 * The socket transport encodes the lines of one task to UTF-8 together (one buffer per write,
 * not one per message: allocating a buffer per small message cost more than the encoding).
 *
 * Usually one message; a run of consecutive deltas forwarded from one chunk of runtime output
 * is one `EncodedMessage` of many (./agent-channel.ts): the socket takes their lines as one
 * string, or as the bytes a run was written as (./delta-run.ts), the WebSocket one frame per
 * message. A run's bytes are a pooled buffer's (./run-buffers.ts): a client that keeps them
 * past being sent the message takes a hold on that buffer (`hold`), and the message is
 * `release`d after, so a client that read it later would fail loudly, not read another run.
 */
import { encodeJsonLine } from "../../wire/jsonl-encoder.ts";
import type { HeldBytes } from "../outbound-buffer.ts";

const utf8 = new TextDecoder();

export class EncodedMessage {
  private lineCache: string | undefined;
  private framesCache: readonly string[] | undefined;
  private byteLengthCache: number | undefined;
  /** A run's lines already in UTF-8 (./delta-run.ts), newlines included. */
  private bytes: Uint8Array | undefined;
  /** What keeps `bytes` from being reused; a client that keeps them takes a hold on it. */
  private holdOfBytes: HeldBytes | undefined;
  private released = false;

  private constructor(
    line: string | undefined,
    frames: readonly string[] | undefined,
    byteLength?: number,
    bytes?: Uint8Array,
    hold?: HeldBytes,
  ) {
    this.lineCache = line;
    this.framesCache = frames;
    this.byteLengthCache = byteLength;
    this.bytes = bytes;
    this.holdOfBytes = hold;
  }

  /** Callers pass a `DaemonMessage` (typed at `ClientConnection.send`, which builds one of these). */
  static of(message: object): EncodedMessage {
    return new EncodedMessage(encodeJsonLine(message), undefined);
  }

  /**
   * A line that is already one encoded message (a runtime's checked line, routing spliced in;
   * newline included, U+2028/U+2029 escaped), with its UTF-8 size.
   */
  static ofLine(line: string, byteLength: number): EncodedMessage {
    return new EncodedMessage(line, undefined, byteLength);
  }

  /**
   * Several encoded messages (the JSON text of each, no newline, U+2028/U+2029 escaped) sent
   * as one, in order; `byteLength` is the UTF-8 size of their lines, newlines included.
   */
  static ofRun(frames: readonly string[], byteLength: number): EncodedMessage {
    return new EncodedMessage(undefined, frames, byteLength);
  }

  /**
   * Several encoded messages as their lines in UTF-8, each with its newline (a run of deltas
   * written as bytes, ./delta-run.ts) in shared bytes that `hold` keeps; readable until
   * `release` (see above). The socket writes these bytes as they are.
   */
  static ofHeldBytes(bytes: Uint8Array, hold: HeldBytes): EncodedMessage {
    return new EncodedMessage(undefined, undefined, bytes.length, bytes, hold);
  }

  /**
   * What a client that keeps `wire` past this message must hold (and give up once it wrote
   * them); undefined for a message that is not in shared bytes.
   */
  get hold(): HeldBytes | undefined {
    return this.holdOfBytes;
  }

  /** Every client was sent the message: its shared bytes may be reused, and no client may read them after. */
  release(): void {
    if (this.holdOfBytes === undefined) return;
    this.released = true;
    this.bytes = undefined;
    this.holdOfBytes = undefined;
  }

  /** The message's line, newline included; a run's lines, each with its newline. */
  get line(): string {
    if (this.lineCache === undefined && this.released)
      throw new Error("a transient message was read after its bytes were released");
    this.lineCache ??=
      this.bytes !== undefined ? utf8.decode(this.bytes) : `${(this.framesCache ?? []).join("\n")}\n`;
    return this.lineCache;
  }

  /** What the socket writes: the lines as bytes when they came as bytes, else `line`. */
  get wire(): string | Uint8Array {
    return this.bytes ?? this.line;
  }

  /** The line's size in UTF-8 (what the socket's outbound buffer counts against its cap). */
  get byteLength(): number {
    this.byteLengthCache ??= Buffer.byteLength(this.line);
    return this.byteLengthCache;
  }

  /** The JSON text of each message, without the newline (one WebSocket text frame each). */
  get frames(): readonly string[] {
    this.framesCache ??=
      this.bytes !== undefined ? this.line.slice(0, -1).split("\n") : [this.line.slice(0, -1)];
    return this.framesCache;
  }
}
