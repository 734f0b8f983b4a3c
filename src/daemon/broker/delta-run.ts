/**
 * A run of `message_delta` lines forwarded in one pass over a chunk of runtime output: where
 * the chunk came as ASCII bytes (a character's index is its byte's), each line the fast path
 * takes (src/wire/delta-line.ts: the run checked in place by one sticky expression) is copied
 * as bytes into a run buffer with the daemon's `seq` and the agent's routing spliced in — no
 * string per line (a `seq`'s digits are written in place), no join, no UTF-8 encoding after.
 * That buffer is the message every client gets (./encoded-message.ts); it comes from a pool
 * (./run-buffers.ts) and goes back to it once no client holds it, so a run allocates nothing
 * fresh (and faulted in) in the usual case.
 *
 * Every line of a run has the same activity phase (thinking or streaming): a line that would
 * change it ends the run and takes the one-line path, which tells the clients first.
 */
import { deltaRunEnd, SEQ_MEMBER } from "../../wire/delta-line.ts";
import { type RunBuffer, runBuffers } from "./run-buffers.ts";

const SEQ_BYTES = Buffer.from(SEQ_MEMBER);
/** At most 15 digits (src/wire/delta-line.ts); a daemon `seq` is a safe integer (16). */
const MAX_SEQ_DIGITS = 16;

export interface DeltaRun {
  /** Where the lines taken end in the text (after the last one's LF, or at its end). */
  end: number;
  lines: number;
  /** The lines as forwarded: each `…,"seq":<seq>,"agent_id":"…"}` and its LF; a view of `buffer`. */
  bytes: Uint8Array;
  /** Held by the caller: it releases it once every client took or retained it. */
  buffer: RunBuffer;
}

export class DeltaRunWriter {
  /** `,"agent_id":"…"}` and the LF, in UTF-8. */
  private readonly tail: Buffer;

  constructor(agentId: string) {
    this.tail = Buffer.from(`,"agent_id":${JSON.stringify(agentId)}}\n`);
    runBuffers.prepare();
  }

  /**
   * The delta lines from `from` in `text` (`bytes`, the same characters as ASCII bytes) whose
   * kind is thinking when `thinking`, otherwise text or tool_call, stamped `seq + 1` onwards;
   * undefined when the line at `from` is not one.
   */
  write(text: string, from: number, bytes: Uint8Array, seq: number, thinking: boolean): DeltaRun | undefined {
    const runEnd = deltaRunEnd(text, from, thinking);
    if (runEnd === -1) return undefined;
    const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    const buffer = runBuffers.take();
    const tail = this.tail;
    let at = 0;
    let lines = 0;
    let pos = from;
    while (pos < runEnd) {
      const lf = text.indexOf("\n", pos);
      // Every line of the run ends with its LF, but a last one at the text's end.
      const end = lf === -1 || lf >= runEnd ? runEnd : lf + 1;
      const seqAt = text.lastIndexOf(SEQ_MEMBER, end);
      const need = at + seqAt - pos + SEQ_BYTES.length + MAX_SEQ_DIGITS + tail.length;
      if (need > buffer.bytes.length) buffer.grow(need, at);
      const out = buffer.bytes;
      at += source.copy(out, at, pos, seqAt);
      at += SEQ_BYTES.copy(out, at);
      at = writeDigits(out, at, seq + lines + 1);
      at += tail.copy(out, at);
      lines++;
      pos = end;
    }
    return { end: runEnd, lines, bytes: buffer.bytes.subarray(0, at), buffer };
  }
}

/**
 * `n`, a safe integer ≥ 0, in decimal at `at` in `out`, without a string per line; returns
 * where its digits end. `(rest - digit) / 10` is exact where `Math.floor(rest / 10)` may round.
 */
export function writeDigits(out: Uint8Array, at: number, n: number): number {
  let end = at + 1;
  for (let rest = n; rest >= 10; rest = (rest - (rest % 10)) / 10) end++;
  let rest = n;
  for (let i = end - 1; i >= at; i--) {
    const digit = rest % 10;
    out[i] = 0x30 + digit;
    rest = (rest - digit) / 10;
  }
  return end;
}
