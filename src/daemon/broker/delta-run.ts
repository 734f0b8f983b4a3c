/**
 * A run of `message_delta` lines forwarded in one pass over a chunk of runtime output: where
 * the chunk came as ASCII bytes (a character's index is its byte's), each line the fast path
 * takes (src/wire/delta-line.ts: the run checked in place by one sticky expression) is copied as bytes
 * into the run's buffer with the daemon's `seq` and the agent's routing spliced in — no string
 * per line, no join, no UTF-8 encoding afterwards. The buffer is the message every client
 * gets (./encoded-message.ts, a transient one): it is the writer's scratch, reused by the next
 * run, so nothing fresh is allocated (and faulted in) per chunk, nor per line (a `seq`'s
 * digits are written in place); each client takes what it needs of it before the next run is
 * written.
 *
 * Every line of a run has the same activity phase (thinking or streaming): a line that would
 * change it ends the run and takes the one-line path, which tells the clients first.
 */
import { deltaRunEnd, SEQ_MEMBER } from "../../wire/delta-line.ts";

const SEQ_BYTES = Buffer.from(SEQ_MEMBER);
/** At most 15 digits (src/wire/delta-line.ts); a daemon `seq` is a safe integer (16). */
const MAX_SEQ_DIGITS = 16;

const SCRATCH_BYTES = 512 * 1024;
/**
 * Shared by every agent (the daemon's JS is one thread and a run is written in one go), made
 * with the first agent's writer; one grown past a chunk of usual size is let go after its run.
 */
let scratch: Buffer | undefined;

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
    scratch ??= residentBuffer(SCRATCH_BYTES);
  }

  /**
   * The delta lines from `from` in `text` (`bytes`, the same characters as ASCII bytes) whose
   * kind is thinking when `thinking`, otherwise text or tool_call, stamped `seq + 1` onwards;
   * undefined when the line at `from` is not one.
   */
  write(text: string, from: number, bytes: Uint8Array, seq: number, thinking: boolean): DeltaRun | undefined {
    const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    let out = scratch ?? residentBuffer(SCRATCH_BYTES);
    const tail = this.tail;
    const runEnd = deltaRunEnd(text, from, thinking);
    if (runEnd === -1) return undefined;
    let at = 0;
    let lines = 0;
    let pos = from;
    while (pos < runEnd) {
      const lf = text.indexOf("\n", pos);
      // Every line of the run ends with its LF, but a last one at the text's end.
      const end = lf === -1 || lf >= runEnd ? runEnd : lf + 1;
      const seqAt = text.lastIndexOf(SEQ_MEMBER, end);
      const need = at + seqAt - pos + SEQ_BYTES.length + MAX_SEQ_DIGITS + tail.length;
      if (need > out.length) {
        const grown = Buffer.allocUnsafe(Math.max(need, out.length * 2));
        out.copy(grown, 0, 0, at);
        out = grown;
      }
      at += source.copy(out, at, pos, seqAt);
      at += SEQ_BYTES.copy(out, at);
      at = writeDigits(out, at, seq + lines + 1);
      at += tail.copy(out, at);
      lines++;
      pos = end;
    }
    const run = { end: runEnd, lines, bytes: out.subarray(0, at) };
    // One grown past a chunk of usual size is let go (the run keeps it for as long as it is read).
    scratch = out.length > 4 * SCRATCH_BYTES ? Buffer.allocUnsafe(SCRATCH_BYTES) : out;
    return run;
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

/**
 * A buffer whose pages are in memory now: a fresh page costs a fault on first touch (~10 µs on
 * a VM), so the scratch is touched when the first agent is made, not during its first turn.
 * `Buffer.alloc` would not do it: zeroed memory from the OS is handed out untouched.
 */
function residentBuffer(size: number): Buffer {
  return Buffer.allocUnsafe(size).fill(0);
}
