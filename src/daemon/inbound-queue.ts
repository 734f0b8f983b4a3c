/**
 * A connection's inbound queue, shared by both daemon transports: parsed messages wait here and
 * are handled one at a time, in order. It is bounded in messages and bytes; once either bound is
 * reached the transport stops reading (the peer sees TCP/socket backpressure, nothing is
 * dropped) and reads again once the queue has drained to half of both. When the connection
 * closes, the messages that have not started are dropped: nothing runs for a client that left.
 */

export interface InboundLimits {
  /** Messages waiting (not started) at which reading pauses. */
  maxMessages: number;
  /** Bytes of the waiting messages' text at which reading pauses. */
  maxBytes: number;
}

/** 128 messages or 16 MiB (one message at the size limit), whichever comes first. */
export const DEFAULT_INBOUND_LIMITS: InboundLimits = { maxMessages: 128, maxBytes: 16 * 1024 * 1024 };

/** How the transport stops and restarts reading from its peer. */
export interface ReadFlow {
  pause(queued: { messages: number; bytes: number }): void;
  resume(): void;
}

interface Waiting {
  bytes: number;
  work: () => Promise<void>;
}

export class InboundQueue {
  /** Short (the bounds keep it so): `shift` is cheap. */
  private readonly waiting: Waiting[] = [];
  private bytes = 0;
  private running = false;
  private paused = false;
  private closed = false;

  constructor(
    private readonly limits: InboundLimits,
    private readonly flow: ReadFlow,
  ) {}

  /** Messages waiting, not started. */
  get length(): number {
    return this.waiting.length;
  }

  /** `bytes`: the size of the message's text (what the queue holds on to). */
  push(bytes: number, work: () => Promise<void>): void {
    if (this.closed) return;
    this.waiting.push({ bytes, work });
    this.bytes += bytes;
    if (!this.paused && (this.length >= this.limits.maxMessages || this.bytes >= this.limits.maxBytes)) {
      this.paused = true;
      this.flow.pause({ messages: this.length, bytes: this.bytes });
    }
    // Like a promise chain: the first message starts once the current task's code has run.
    if (!this.running) {
      this.running = true;
      queueMicrotask(() => void this.run());
    }
  }

  /** The connection is gone: what has not started never will. Returns how many were dropped. */
  close(): number {
    if (this.closed) return 0;
    this.closed = true;
    const dropped = this.length;
    this.waiting.length = 0;
    this.bytes = 0;
    return dropped;
  }

  private async run(): Promise<void> {
    for (let next = this.take(); next; next = this.take()) {
      try {
        await next.work();
      } catch {
        // A handler's failure is its own response; the connection carries on.
      }
    }
    this.running = false;
  }

  private take(): Waiting | undefined {
    if (this.closed) return undefined;
    const next = this.waiting.shift();
    if (!next) return undefined;
    this.bytes -= next.bytes;
    if (this.paused && this.length * 2 <= this.limits.maxMessages && this.bytes * 2 <= this.limits.maxBytes) {
      this.paused = false;
      this.flow.resume();
    }
    return next;
  }
}
