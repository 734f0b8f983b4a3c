/** What the benchmark asks of every tool (Shard, pi, opencode): start, turns, close. */
import { withDeadline } from "./deadline.ts";
import type { StreamItem } from "./stream-events.ts";

export type BenchEvent = { type: string } & Record<string, unknown>;

export interface TurnResult {
  /** Text deltas the client received between the prompt and the end of the turn. */
  deltas: number;
}

export interface RunningTool {
  /** Root of the tool's process tree (for its memory). */
  readonly rootPid: number;
  turn(prompt: string, timeoutMs: number): Promise<TurnResult>;
  close(): Promise<void>;
}

export interface ToolDriver {
  id: string;
  label: string;
  version: string;
  /** How the tool is started, for the docs. */
  command: string;
  /** The mock's tool call that makes this tool read `file` (an absolute path). */
  readCall(file: string): { name: string; args: Record<string, unknown> };
  /** Spawns the tool; resolves once it is ready (the start → ready measure spans this call). */
  start(timeoutMs: number): Promise<RunningTool>;
}

/** Counts deltas and resolves waits on the events of one tool's stream. */
export class EventWaiter {
  deltas = 0;
  private waiters: { pred: (e: BenchEvent) => boolean; resolve: (e: BenchEvent) => void }[] = [];

  constructor(private readonly died: Promise<never>) {}

  take(item: StreamItem): void {
    if (item.kind === "delta") this.deltas++;
    else if (item.kind === "event") this.event(item.event);
  }

  event(event: BenchEvent): void {
    if (this.waiters.length === 0) return;
    this.waiters = this.waiters.filter((w) => {
      if (!w.pred(event)) return true;
      w.resolve(event);
      return false;
    });
  }

  until(pred: (e: BenchEvent) => boolean, ms: number, what: string): Promise<BenchEvent> {
    let waiter: { pred: (e: BenchEvent) => boolean; resolve: (e: BenchEvent) => void } | undefined;
    const found = new Promise<BenchEvent>((resolve) => {
      waiter = { pred, resolve };
      this.waiters.push(waiter);
    });
    return withDeadline(Promise.race([found, this.died]), ms, what).finally(() => {
      this.waiters = this.waiters.filter((w) => w !== waiter);
    });
  }
}
