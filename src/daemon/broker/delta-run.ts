/**
 * A run of `message_delta` lines forwarded in one pass over a chunk of runtime output: where
 * the chunk came as ASCII bytes (a character's index is its byte's), each line the fast path
 * takes (src/wire/delta-line.ts, checked in place by a sticky expression) is copied as bytes
 * into the run's buffer with the daemon's `seq` and the agent's routing spliced in — no string
 * per line, no join, no UTF-8 encoding afterwards. The buffer is the message every client
 * gets (./encoded-message.ts, a transient one): it is the writer's scratch, reused by the next
 * run, so nothing fresh is allocated (and faulted in) per chunk; each client takes what it
 * needs of it before the next run is written.
 *
 * Every line of a run has the same activity phase (thinking or streaming): a line that would
 * change it ends the run and takes the one-line path, which tells the clients first.
 */
import { deltaLineEnd, SEQ_MEMBER } from "../../wire/delta-line.ts";

const SEQ_BYTES = Buffer.from(SEQ_MEMBER);
/** At most 15 digits (src/wire/delta-line.ts); a daemon `seq` is a safe integer (16). */
const MAX_SEQ_DIGITS = 16;

const SCRATCH_BYTES = 256 * 1024;
/**
 * Shared by every agent (the daemon's JS is one thread and a run is written in one go); one
 * grown past a chunk of usual size is let go after its run.
 */
let scratch = Buffer.allocUnsafe(SCRATCH_BYTES);

export interface DeltaRun {
  /** Where the lines taken end in the text (after the last one's LF, or at its end). */
  end: number;
  lines: number;
  /**
   * The lines as forwarded: each `…,"seq":<seq>,"agent_id":"…"}` and its LF. A view of the
   * writer's scratch, valid until its next `write`.
   */
  bytes: Uint8Array;
}

export class DeltaRunWriter {
  /** `,"agent_id":"…"}` and the LF, in UTF-8. */
  private readonly tail: Buffer;

  constructor(agentId: string) {
    this.tail = Buffer.from(`,"agent_id":${JSON.stringify(agentId)}}\n`);
  }

  /**
   * The delta lines from `from` in `text` (`bytes`, the same characters as ASCII bytes) whose
   * kind is thinking when `thinking`, otherwise text or tool_call, stamped `seq + 1` onwards;
   * undefined when the line at `from` is not one.
   */
  write(text: string, from: number, bytes: Uint8Array, seq: number, thinking: boolean): DeltaRun | undefined {
    const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    const tail = this.tail;
    let at = 0;
    let lines = 0;
    let pos = from;
    for (;;) {
      const end = deltaLineEnd(text, pos, thinking);
      if (end === -1) break;
      const seqAt = text.lastIndexOf(SEQ_MEMBER, end);
      const need = at + seqAt - pos + SEQ_BYTES.length + MAX_SEQ_DIGITS + tail.length;
      if (need > scratch.length) {
        const grown = Buffer.allocUnsafe(Math.max(need, scratch.length * 2));
        scratch.copy(grown, 0, 0, at);
        scratch = grown;
      }
      at += source.copy(scratch, at, pos, seqAt);
      at += SEQ_BYTES.copy(scratch, at);
      at += scratch.write(String(seq + lines + 1), at, "latin1");
      at += tail.copy(scratch, at);
      lines++;
      pos = end;
    }
    if (lines === 0) return undefined;
    const run = { end: pos, lines, bytes: scratch.subarray(0, at) };
    // One grown past a chunk of usual size is let go (the run keeps it for as long as it is read).
    if (scratch.length > 4 * SCRATCH_BYTES) scratch = Buffer.allocUnsafe(SCRATCH_BYTES);
    return run;
  }
}
