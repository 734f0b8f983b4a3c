/**
 * Steer and follow-up messages accepted mid-turn (docs/protocol.md §6). Each is written to the
 * session as a `queued_input` entry before it is acknowledged, and as a normal message —
 * pointing back at that entry — when it is delivered, so a crash in between loses nothing
 * (see `restoreQueuedInputs`).
 */
import type { NewEntry } from "../contracts/session-store.ts";
import { newId } from "../support/ids.ts";
import type { Message } from "../types/messages.ts";
import type { SessionEntry } from "../types/session-entries.ts";
import { type UserInput, userMessage } from "./turn/user-message.ts";

interface Queued {
  entryId: string;
  message: Message;
}

export class InputQueues {
  private readonly steers: Queued[] = [];
  private readonly followUps: Queued[] = [];

  constructor(private readonly persist: (entry: NewEntry) => SessionEntry) {}

  get size(): number {
    return this.steers.length + this.followUps.length;
  }

  get hasSteers(): boolean {
    return this.steers.length > 0;
  }

  enqueue(behavior: "steer" | "follow_up", input: UserInput): void {
    const message = userMessage(input, newId("msg"));
    const entry = this.persist({ type: "queued_input", behavior, message });
    (behavior === "steer" ? this.steers : this.followUps).push({ entryId: entry.id, message });
  }

  /** Delivers every queued steer into the conversation, in order. */
  deliverSteers(): Message[] {
    return this.steers.splice(0).map((q) => this.deliver(q));
  }

  /** Delivers the oldest follow-up, which starts the next turn. */
  deliverFollowUp(): Message | undefined {
    const next = this.followUps.shift();
    return next && this.deliver(next);
  }

  /** Abort: nothing queued will be delivered; the session records that. */
  dropAll(): number {
    const dropped = [...this.steers, ...this.followUps];
    this.steers.length = 0;
    this.followUps.length = 0;
    if (dropped.length > 0) this.persist({ type: "queue_dropped", ids: dropped.map((q) => q.entryId) });
    return dropped.length;
  }

  private deliver(queued: Queued): Message {
    this.persist({ type: "message", message: queued.message, queued_id: queued.entryId });
    return queued.message;
  }
}
