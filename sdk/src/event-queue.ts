/**
 * A bounded async queue behind the SDK's async iterables. Events wait here until the reader
 * pulls them; a reader that falls more than `limit` events behind gets a `ShardError` instead
 * of the process growing without bound (the agent is never slowed down for it).
 */
import { ShardError } from "./errors.ts";

export const DEFAULT_EVENT_BUFFER = 100_000;

/** `T` is an object type (every event is): an empty slot reads as `undefined`, never as an item. */
export class EventQueue<T extends object> implements AsyncIterableIterator<T> {
  private items: T[] = [];
  private head = 0;
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private failWaiting: ((error: ShardError) => void) | undefined;
  private ended = false;
  private failure: ShardError | undefined;

  constructor(
    private readonly limit = DEFAULT_EVENT_BUFFER,
    private readonly onReturn?: () => void,
  ) {}

  push(item: T): void {
    if (this.ended) return;
    const wake = this.waiting;
    if (wake) {
      this.waiting = undefined;
      this.failWaiting = undefined;
      wake({ value: item, done: false });
      return;
    }
    if (this.items.length - this.head >= this.limit) {
      this.fail(
        new ShardError(
          "INTERNAL_ERROR",
          `more than ${this.limit} events were not read; read the stream as it arrives (or raise maxBufferedEvents)`,
        ),
      );
      return;
    }
    this.items.push(item);
  }

  /** No more items: the reader sees the rest, then the end. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    const wake = this.waiting;
    this.waiting = undefined;
    this.failWaiting = undefined;
    wake?.({ value: undefined, done: true });
  }

  /** The reader gets `error` after the items already queued. */
  fail(error: ShardError): void {
    if (this.ended) return;
    this.failure = error;
    this.ended = true;
    const fail = this.failWaiting;
    this.waiting = undefined;
    this.failWaiting = undefined;
    fail?.(error);
  }

  next(): Promise<IteratorResult<T>> {
    const value = this.items[this.head];
    if (value !== undefined) {
      this.head++;
      if (this.head > 1024 && this.head * 2 > this.items.length) {
        this.items = this.items.slice(this.head);
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.failure) {
      const failure = this.failure;
      this.failure = undefined;
      return Promise.reject(failure);
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failWaiting = reject;
    });
  }

  return(): Promise<IteratorResult<T>> {
    this.items = [];
    this.head = 0;
    this.failure = undefined;
    this.end();
    this.onReturn?.();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
