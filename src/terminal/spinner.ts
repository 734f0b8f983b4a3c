/**
 * "Still working" on a terminal: while a turn runs and nothing has been printed for a moment, a
 * spinner with the time since the turn began redraws on its own line of stderr, so a model that
 * thinks for 9 s never looks like a hang. Whatever prints next clears it first.
 */

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** How long the output must be quiet before the spinner shows. */
const QUIET_MS = 300;
const REDRAW_MS = 100;
const CLEAR_LINE = "\r\u001b[2K";

export interface SpinnerOptions {
  write(text: string): void;
  /** Whether the cursor is at the start of a line (the answer may be mid-line on stdout). */
  atLineStart(): boolean;
  now?: () => number;
}

export class Spinner {
  private timer: ReturnType<typeof setInterval> | undefined;
  private shown = false;
  private frame = 0;
  private startedAt = 0;
  private lastOutputAt = 0;
  private readonly now: () => number;

  constructor(private readonly options: SpinnerOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  /** A turn began: the spinner may show from now on. */
  start(): void {
    this.startedAt = this.lastOutputAt = this.now();
    this.timer ??= setInterval(() => this.tick(), REDRAW_MS);
  }

  /** Something is about to print: clear the spinner's line and wait for quiet again. */
  clear(): void {
    this.lastOutputAt = this.now();
    if (!this.shown) return;
    this.shown = false;
    this.options.write(CLEAR_LINE);
  }

  /** The turn ended. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
  }

  /** Draws one frame if the output has been quiet long enough (public for tests). */
  tick(): void {
    const now = this.now();
    if (now - this.lastOutputAt < QUIET_MS || !this.options.atLineStart()) return;
    const seconds = ((now - this.startedAt) / 1000).toFixed(1);
    this.frame = (this.frame + 1) % FRAMES.length;
    this.options.write(`${CLEAR_LINE}${FRAMES[this.frame]} working ${seconds} s`);
    this.shown = true;
  }
}
