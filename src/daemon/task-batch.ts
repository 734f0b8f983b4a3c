/**
 * Per-task batching, shared by both daemon transports: whatever a connection is sent during
 * one task (say, every event of one chunk of runtime output) leaves together at the end of
 * it, so a burst costs one write per client instead of one per message. Order is preserved.
 */

/** Runs `run` once at the end of the current task, however often it is asked for during it. */
export class EndOfTask {
  private scheduled = false;

  constructor(private readonly run: () => void) {}

  request(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.run();
    });
  }
}

/** Collects a task's items and hands them over together at its end. */
export class TaskBatch<T> {
  private items: T[] = [];
  private readonly end = new EndOfTask(() => {
    const items = this.items;
    this.items = [];
    if (items.length > 0) this.flush(items);
  });

  constructor(
    /** Receives the task's items, in the order they were pushed; never an empty list. */
    private readonly flush: (items: T[]) => void,
  ) {}

  push(item: T): void {
    this.items.push(item);
    this.end.request();
  }

  /** Drops what waits (the connection is closing). */
  clear(): void {
    this.items = [];
  }
}
