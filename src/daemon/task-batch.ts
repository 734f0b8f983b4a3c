/**
 * Per-task batching, shared by both daemon transports: whatever a connection is sent during
 * one task (say, every event of one chunk of runtime output) leaves together at the end of
 * it, so a burst costs one write per client instead of one per message. Order is preserved.
 */
export class TaskBatch<T> {
  private items: T[] = [];
  private scheduled = false;

  constructor(
    /** Receives the task's items, in the order they were pushed; never an empty list. */
    private readonly flush: (items: T[]) => void,
  ) {}

  push(item: T): void {
    this.items.push(item);
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      const items = this.items;
      this.items = [];
      if (items.length > 0) this.flush(items);
    });
  }

  /** Drops what waits (the connection is closing). */
  clear(): void {
    this.items = [];
  }
}
