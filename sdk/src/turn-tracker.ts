/**
 * Binds the SDK's `Turn` objects to the runtime's turns. A prompt accepted while idle starts
 * the next `turn_start` (it follows the acceptance on the same connection); a queued follow-up
 * starts a later turn whose first user message is its text. Events between `turn_start` and
 * `turn_end` belong to the one turn in flight. After a reconnect the fresh `sync` decides:
 * a turn it no longer shows ended while we were away, and is finished from the live window.
 */
import type { FeedGap } from "../../src/snapshot/agent-feed.ts";
import type { AgentSnapshot } from "../../src/snapshot/agent-snapshot.ts";
import type { Message } from "../../src/types/messages.ts";
import type { TurnStartEvent } from "../../src/types/stream-events.ts";
import type { TurnFailure } from "../../src/types/turn-failures.ts";
import type { WireError } from "../../src/wire/errors.ts";
import type { AgentStreamEvent } from "./stream-events.ts";
import type { Turn } from "./turn.ts";

/** How a turn that ended unseen across a daemon restart, with no failure recorded, is reported. */
const DAEMON_RESTARTED: Pick<TurnFailure, "kind" | "code" | "message"> = {
  kind: "interrupted",
  code: "INTERNAL_ERROR",
  message: "interrupted: the daemon stopped before this turn's end reached this client",
};

export class TurnTracker {
  /** Accepted while idle: each takes the next `turn_start`. */
  private readonly starting: Turn[] = [];
  /** Queued as follow-ups: each waits for a turn that opens with its text. */
  private readonly queued: Turn[] = [];
  private current: Turn | undefined;
  /** A `turn_start` nobody claimed yet: a follow-up may claim it at its first user message. */
  private unclaimed: TurnStartEvent | undefined;

  get busy(): boolean {
    return this.current !== undefined || this.starting.length > 0;
  }

  started(turn: Turn): void {
    this.starting.push(turn);
  }

  queuedFollowUp(turn: Turn): void {
    this.queued.push(turn);
  }

  /** Waiting as a follow-up: no turn of the runtime is its own yet. */
  isQueued(turn: Turn): boolean {
    return this.queued.includes(turn);
  }

  event(event: AgentStreamEvent): void {
    switch (event.type) {
      case "turn_start": {
        const turn = this.starting.shift();
        this.unclaimed = undefined;
        if (turn) this.begin(turn, event);
        else this.unclaimed = event;
        return;
      }
      case "message_complete":
        if (this.unclaimed && event.message.role === "user") {
          const start = this.unclaimed;
          this.unclaimed = undefined;
          const at = this.queued.findIndex((t) => t.prompt === textOf(event.message));
          const turn = at >= 0 ? this.queued.splice(at, 1)[0] : undefined;
          if (turn) this.begin(turn, start);
        }
        this.current?.push(event);
        return;
      case "turn_end": {
        this.unclaimed = undefined;
        const turn = this.current;
        if (!turn || turn.id !== event.turn_id) return;
        this.current = undefined;
        turn.push(event);
        turn.end(event);
        return;
      }
      case "queue_dropped":
        // An abort, from this client or any other: no queued follow-up will start its turn.
        this.dropQueued();
        this.current?.push(event);
        return;
      default:
        this.current?.push(event);
    }
  }

  /** A fresh `sync` after a gap: the turn in flight either goes on or ended unseen. */
  synced(state: AgentSnapshot, gap: FeedGap["reason"] | undefined): void {
    if (gap === undefined) return;
    // Across a daemon restart a turn whose turn_end we never saw was cut off, even when its
    // failure is not (yet) in the window: a runtime killed before recording it.
    const lost = gap === "sequence_reset" ? DAEMON_RESTARTED : undefined;
    const messages = state.live_window.messages;
    const current = this.current;
    if (current && current.id !== state.turn_id) {
      this.current = undefined;
      const window = turnMessages(messages, current.prompt);
      current.endFromWindow(window, failureOf(state, current.id, window[0]?.id) ?? lost);
    }
    if (state.turn_id !== undefined && !this.current) {
      // Our accepted prompt's turn_start went by unseen: the turn in flight is it.
      const turn = this.starting.shift();
      if (turn) {
        turn.id = state.turn_id;
        this.current = turn;
      }
    }
    if (state.turn_id === undefined) {
      // Started and ended while we were away.
      for (const turn of this.starting.splice(0)) {
        const window = turnMessages(messages, turn.prompt);
        turn.endFromWindow(window, failureOf(state, turn.id, window[0]?.id) ?? lost);
      }
    }
  }

  /** An abort drops every queued follow-up before it starts (the runtime clears its queues). */
  dropQueued(): void {
    for (const turn of this.queued.splice(0)) turn.cancel();
  }

  /** The agent is gone: every turn not yet ended ends with `error`. */
  failAll(error: WireError): void {
    const all = [...this.starting.splice(0), ...this.queued.splice(0)];
    if (this.current) all.push(this.current);
    this.current = undefined;
    for (const turn of all) turn.fail(error);
  }

  private begin(turn: Turn, start: TurnStartEvent): void {
    turn.id = start.turn_id;
    this.current = turn;
    turn.push(start);
  }
}

/**
 * The failure recorded for a turn that ended unseen: by its turn id (a runtime that closed
 * records it), or by its prompt (a killed runtime's is recorded on resume, without the turn id).
 */
function failureOf(state: AgentSnapshot, turnId: string | undefined, promptId: string | undefined) {
  const failures = state.live_window.failures ?? [];
  return failures.find(
    (f) =>
      (turnId !== undefined && f.turn_id === turnId) ||
      (promptId !== undefined && f.prompt_message_id === promptId),
  );
}

function textOf(message: Message): string {
  return message.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

/** The messages from the newest user message with this text on (a turn's share of the window). */
function turnMessages(messages: readonly Message[], prompt: string): Message[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === "user" && textOf(m) === prompt) return messages.slice(i);
  }
  return [];
}

/** What a prompt's acceptance says: queued as a steer or follow-up, or (undefined) started now. */
export function isQueued(data: unknown): "steer" | "follow_up" | undefined {
  if (typeof data !== "object" || data === null || !("queued" in data)) return undefined;
  return data.queued === "steer" || data.queued === "follow_up" ? data.queued : undefined;
}
