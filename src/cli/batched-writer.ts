/**
 * Coalesces many small writes (a stream of deltas) into one write per tick, so a burst of
 * events costs one syscall instead of thousands. Order is preserved.
 */
export class BatchedWriter {
  private parts: string[] = [];
  private scheduled = false;
  private pending: Promise<void> = Promise.resolve();

  constructor(private readonly sink: (data: string) => unknown) {}

  write(data: string): void {
    this.parts.push(data);
    if (!this.scheduled) {
      this.scheduled = true;
      // A macrotask, not a microtask: a provider stream yields one event per microtask
      // turn, so only the next I/O turn collects a real batch.
      setImmediate(() => this.drain());
    }
  }

  /** Resolves once everything written so far has been handed to the sink. */
  async flush(): Promise<void> {
    this.drain();
    await this.pending;
  }

  private drain(): void {
    this.scheduled = false;
    if (this.parts.length === 0) return;
    const only = this.parts.length === 1 ? this.parts[0] : undefined;
    const data = only ?? this.parts.join("");
    this.parts = [];
    const result = this.sink(data);
    if (result instanceof Promise) this.pending = this.pending.then(() => result).then(() => undefined);
  }
}
