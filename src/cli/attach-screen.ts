/**
 * `shard attach` on a terminal (stderr is a TTY): everything it prints goes through here, so the
 * status line (the spinner) and the line being typed (readline, when stdin is a terminal too)
 * stay below the output and are never printed over or mixed into it.
 *
 * Below the output sits the "live region": the status line, then readline's input line. Before
 * anything prints, the region is erased; after, it is drawn again with readline's current line
 * and cursor (`rl.prompt(true)`). While the answer is mid-line the region stays hidden and
 * readline is paused, so keys typed meanwhile wait unread (and unechoed: raw mode) until the line
 * ends — nothing typed is lost or lands inside the answer.
 */
import { clearScreenDown, createInterface, cursorTo, type Interface, moveCursor } from "node:readline";

export interface AttachScreenStreams {
  /** The answer's stream (stdout). */
  answer: NodeJS.WriteStream;
  /** Status lines, the live region and readline's echo (stderr, a terminal). */
  status: NodeJS.WriteStream;
}

export class AttachScreen {
  private rl: Interface | undefined;
  private statusLine: string | undefined;
  private statusDrawn = false;
  private shown = false;
  private lineStart = true;
  private readonly answerOnScreen: boolean;

  constructor(private readonly streams: AttachScreenStreams) {
    // An answer piped to a file is not on the screen: it is written as is and moves no cursor.
    this.answerOnScreen = streams.answer.isTTY === true;
  }

  answer(text: string): void {
    if (this.answerOnScreen) this.print(this.streams.answer, text);
    else this.streams.answer.write(text);
  }

  status(text: string): void {
    this.print(this.streams.status, text);
  }

  /** Whether the output ended its line, so the live region is showing. */
  atLineStart(): boolean {
    return this.lineStart;
  }

  /** Sets (or with undefined removes) the line drawn above the input. */
  setStatus(line: string | undefined): void {
    if (line === this.statusLine) return;
    this.statusLine = line;
    if (!this.shown || (line === undefined && !this.statusDrawn)) return;
    this.conceal();
    this.reveal();
  }

  /**
   * Reads typed lines from `input` (a terminal) with readline until Ctrl-D or Ctrl-C on an empty
   * line; each submitted line goes to `onLine`.
   */
  readLines(input: NodeJS.ReadStream, onLine: (line: string) => void): Promise<void> {
    this.conceal();
    const rl = createInterface({ input, output: this.streams.status, terminal: true, prompt: "" });
    this.rl = rl;
    // Runs before readline handles Enter: the status line goes first, so the submitted line is
    // left on the screen as plain output, not below a stale spinner frame.
    input.prependListener("keypress", (_text: string | undefined, key: { name?: string } | undefined) => {
      if ((key?.name === "return" || key?.name === "enter") && this.statusDrawn) {
        this.conceal();
        this.reveal(false);
      }
    });
    rl.on("line", (line) => {
      onLine(line);
      if (this.shown && !this.statusDrawn && this.statusLine !== undefined) {
        this.conceal();
        this.reveal();
      }
    });
    const closed = new Promise<void>((resolve) => {
      rl.once("close", () => {
        this.conceal();
        this.rl = undefined;
        this.lineStart = true;
        resolve();
      });
    });
    this.reveal();
    return closed;
  }

  /** Removes the live region and gives the terminal back (cooked mode). */
  close(): void {
    this.statusLine = undefined;
    this.conceal();
    this.rl?.close();
  }

  private print(stream: NodeJS.WriteStream, text: string): void {
    if (text === "") return;
    this.conceal();
    stream.write(text);
    this.lineStart = text.endsWith("\n");
    if (this.lineStart) this.reveal();
    else this.rl?.pause();
  }

  /** Erases the live region, leaving the cursor where the output continues. */
  private conceal(): void {
    if (!this.shown) return;
    this.shown = false;
    if (this.rl === undefined && !this.statusDrawn) return;
    const rows = (this.rl?.getCursorPos().rows ?? 0) + (this.statusDrawn ? 1 : 0);
    this.statusDrawn = false;
    const out = this.streams.status;
    if (rows > 0) moveCursor(out, 0, -rows);
    cursorTo(out, 0);
    clearScreenDown(out);
  }

  /** Draws the live region below the output, which must have ended its line. */
  private reveal(withStatus = true): void {
    if (this.shown || !this.lineStart) return;
    this.shown = true;
    if (withStatus && this.statusLine !== undefined) {
      this.streams.status.write(`${this.statusLine}\n`);
      this.statusDrawn = true;
    }
    const rl = this.rl;
    if (rl === undefined) return;
    // prompt(true) first moves up as many rows as the cursor was below the line's start when
    // readline last drew it (its `prevRows`): blank rows give it somewhere to move up from. Bun's
    // readline leaves that count behind after a pasted insert wraps, so it is read when present.
    const rows = "prevRows" in rl && typeof rl.prevRows === "number" ? rl.prevRows : rl.getCursorPos().rows;
    if (rows > 0) this.streams.status.write("\n".repeat(rows));
    rl.prompt(true);
  }
}
