/**
 * The cap on live runtimes (`shard daemon --max-runtimes`, docs/daemon.md): every runtime
 * process holds one slot from before it is spawned until it has exited. A start past the cap
 * first waits for a runtime already on its way out, else has the registry stop its oldest idle
 * runtime and waits for that one; with none idle it fails at once. So the queue of waiting
 * starts is never longer than the number of runtimes stopping, itself at most the cap.
 */

export interface SlotRoom {
  /** Live runtimes already told to stop (input closed or signalled): each frees a slot soon. */
  departing(): number;
  /** Stops the runtime idle the longest; false when none is idle. */
  stopOldestIdle(): boolean;
}

export type SlotGrant = { ok: true } | { ok: false; reason: "full" | "closed" };

export class RuntimeSlots {
  private held = 0;
  private readonly waiters: ((grant: SlotGrant) => void)[] = [];
  private closed = false;

  constructor(
    readonly max: number,
    private readonly room: SlotRoom,
  ) {}

  /** Slots held: runtimes starting, running or stopping. */
  get live(): number {
    return this.held;
  }

  /** A slot for one runtime, to be released when that runtime has exited. */
  acquire(): SlotGrant | Promise<SlotGrant> {
    if (this.closed) return { ok: false, reason: "closed" };
    if (this.held < this.max) {
      this.held += 1;
      return { ok: true };
    }
    // One waiter per departing runtime; past that, make one more depart, or give up.
    if (this.waiters.length >= this.room.departing() && !this.room.stopOldestIdle()) {
      return { ok: false, reason: "full" };
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** A runtime exited: its slot goes to the oldest waiting start, if any. */
  release(): void {
    const next = this.waiters.shift();
    if (next) next({ ok: true });
    else this.held -= 1;
  }

  /** Shutdown: no more starts; waiting ones fail. */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter({ ok: false, reason: "closed" });
  }
}
