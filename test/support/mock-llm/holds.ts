/**
 * Named holds for scripted streams: a stream that reaches a `{ hold: name }` step has sent
 * everything before it and waits there until the test calls `release(name)`. A test thus
 * decides when the model "continues", instead of betting on a delay being long enough.
 *
 * Nothing stays held: closing the server ends every hold (its stream is cut), and a hold that is
 * never released ends after its timeout, cutting the stream and saying so on stderr.
 */

/** How a hold ended: released (stream goes on), or closed / timed out / cancelled (it stops). */
export type HoldOutcome = "released" | "closed" | "timeout" | "cancelled";

/** Default time a stream may stay held before it is cut. */
export const DEFAULT_HOLD_TIMEOUT_MS = 20_000;

interface HeldStream {
  name: string;
  finish: (outcome: HoldOutcome) => void;
}

interface HoldWaiter {
  name: string;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class Holds {
  private readonly held = new Set<HeldStream>();
  /** Releases that came before any stream reached the hold: each lets one later arrival pass. */
  private readonly early = new Map<string, number>();
  private waiters: HoldWaiter[] = [];
  private closed = false;

  constructor(
    private readonly defaultTimeoutMs = DEFAULT_HOLD_TIMEOUT_MS,
    private readonly warn: (message: string) => void = console.error,
  ) {}

  /**
   * Holds a stream at `name`. `cancel` ends the hold when the client went away first; the
   * promise always settles (release, server close, timeout or cancel).
   */
  hold(
    name: string,
    timeoutMs = this.defaultTimeoutMs,
  ): { outcome: Promise<HoldOutcome>; cancel: () => void } {
    if (this.closed) return { outcome: Promise.resolve("closed"), cancel: () => {} };
    const early = this.early.get(name) ?? 0;
    if (early > 0) {
      if (early === 1) this.early.delete(name);
      else this.early.set(name, early - 1);
      return { outcome: Promise.resolve("released"), cancel: () => {} };
    }
    let stream: HeldStream | undefined;
    const outcome = new Promise<HoldOutcome>((resolve) => {
      const timer = setTimeout(() => {
        this.warn(
          `mock LLM: hold "${name}" was not released within ${timeoutMs} ms; the stream was cut (call release("${name}"))`,
        );
        entry.finish("timeout");
      }, timeoutMs);
      const entry: HeldStream = {
        name,
        finish: (how) => {
          if (!this.held.delete(entry)) return;
          clearTimeout(timer);
          resolve(how);
        },
      };
      stream = entry;
      this.held.add(entry);
    });
    this.waiters = this.waiters.filter((w) => {
      if (w.name !== name) return true;
      w.resolve();
      return false;
    });
    return { outcome, cancel: () => stream?.finish("cancelled") };
  }

  /**
   * Lets every stream held at `name` go on and returns how many there were. With none held yet,
   * the release is kept for the next stream that reaches `name` (so a release never races the
   * stream to the hold).
   */
  release(name: string): number {
    const streams = [...this.held].filter((s) => s.name === name);
    for (const s of streams) s.finish("released");
    if (streams.length === 0 && !this.closed) this.early.set(name, (this.early.get(name) ?? 0) + 1);
    return streams.length;
  }

  /** Names that streams are held at now (repeated once per stream). */
  names(): string[] {
    return [...this.held].map((s) => s.name);
  }

  /** Resolves once a stream is held at `name` (at once if one is). */
  waitFor(name: string, timeoutMs: number): Promise<void> {
    if (this.names().includes(name)) return Promise.resolve();
    if (this.closed) return Promise.reject(new Error(`mock LLM: closed while waiting for hold "${name}"`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        const now = this.names();
        reject(
          new Error(
            `mock LLM: no stream reached hold "${name}" within ${timeoutMs} ms (held now: ${now.length ? now.join(", ") : "none"})`,
          ),
        );
      }, timeoutMs);
      const waiter: HoldWaiter = {
        name,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      this.waiters.push(waiter);
    });
  }

  /** Server stop: every held stream is cut, every waiter rejected, nothing kept for later. */
  close(): void {
    this.closed = true;
    for (const s of [...this.held]) s.finish("closed");
    for (const w of this.waiters.splice(0))
      w.reject(new Error(`mock LLM: closed while waiting for hold "${w.name}"`));
    this.early.clear();
  }
}
