/**
 * Coalesces snapshot updates to one per animation frame: a stream of 10,000 deltas folds each
 * into the feed at once (cheap) but repaints at most once a frame. A hidden page gets no
 * frames, so a fallback timer publishes too (state that decides notifications and the tab
 * title must not wait for the tab to be shown); whichever comes first runs, once.
 */
const FALLBACK_MS = 100;

export class FrameBatch<K> {
  private readonly dirty = new Set<K>();
  private scheduled = false;
  private frame: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly flush: (keys: K[]) => void) {}

  mark(key: K): void {
    this.dirty.add(key);
    if (this.scheduled) return;
    this.scheduled = true;
    const run = () => this.run();
    this.frame = requestAnimationFrame(run);
    this.timer = setTimeout(run, FALLBACK_MS);
  }

  forget(key: K): void {
    this.dirty.delete(key);
  }

  private run(): void {
    if (!this.scheduled) return;
    this.scheduled = false;
    // The other of the two is cancelled: a stale fallback must not flush a later batch early.
    if (this.frame !== undefined) cancelAnimationFrame(this.frame);
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.frame = undefined;
    this.timer = undefined;
    const keys = [...this.dirty];
    this.dirty.clear();
    if (keys.length > 0) this.flush(keys);
  }
}
