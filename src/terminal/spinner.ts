/**
 * "Still working" on a terminal: while a turn runs and nothing has been printed for a moment, a
 * spinner with the time since the turn began redraws, so a model that thinks for 9 s never looks
 * like a hang. Whatever prints next clears it first. Where it is drawn is the caller's: `shard run`
 * redraws the cursor's own line (`onOwnLine`), `shard attach` a status line above the input.
 */

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** How long the output must be quiet before the spinner shows. */
const QUIET_MS = 300;
const REDRAW_MS = 100;
const CLEAR_LINE = "\r\u001b[2K";

export interface SpinnerOptions {
  /** Shows one frame (`⠋ working 3.2 s`) in place of the last. */
  draw(frame: string): void;
  /** Removes the frame shown. */
  erase(): void;
  /** Whether a frame may show now (not while the answer is mid-line on stdout, say). */
  mayDraw(): boolean;
  now?: () => number;
}

/** Draws the frames over the cursor's line, for output that nothing else is typed into. */
export function onOwnLine(write: (text: string) => void): Pick<SpinnerOptions, "draw" | "erase"> {
  return { draw: (frame) => write(`${CLEAR_LINE}${frame}`), erase: () => write(CLEAR_LINE) };
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
    this.options.erase();
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
    if (now - this.lastOutputAt < QUIET_MS || !this.options.mayDraw()) return;
    const seconds = ((now - this.startedAt) / 1000).toFixed(1);
    this.frame = (this.frame + 1) % FRAMES.length;
    this.options.draw(`${FRAMES[this.frame]} working ${seconds} s`);
    this.shown = true;
  }
}
