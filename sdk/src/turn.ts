/**
 * One turn of an agent (docs/protocol.md §6): its events as an async iterable, `done` at its
 * `turn_end`, and the controls that act on it (steer, abort, follow-up). `done` never rejects:
 * a turn that failed resolves with `error` set, so an unread turn cannot crash a script.
 */
import { toolResultMessage } from "../../src/snapshot/live-window.ts";
import type { Usage } from "../../src/types/agent-state.ts";
import type { Message } from "../../src/types/messages.ts";
import type { TurnEndEvent, TurnEndReason } from "../../src/types/stream-events.ts";
import type { TurnFailure } from "../../src/types/turn-failures.ts";
import type { WireError } from "../../src/wire/errors.ts";
import { EventQueue } from "./event-queue.ts";
import type { AgentStreamEvent } from "./stream-events.ts";

/**
 * A turn's tokens and cost. `cost_usd` is what its calls cost in US dollars, or null when some
 * call's model has no price: unknown, never 0 (docs/usage.md).
 */
export type TurnUsage = Usage & { cost_usd: number | null };

/** The turn's usage with `cost_usd` (null when any call was unpriced). */
export function withCostUsd(usage: Usage): TurnUsage {
  return { ...usage, cost_usd: usage.cost_unknown === true ? null : (usage.cost ?? 0) };
}

export interface TurnResult {
  /** Undefined only when the turn never started (the agent went away first). */
  turn_id: string | undefined;
  /** The text of the turn's last assistant message. */
  text: string;
  /** Every message the turn added, the prompt first. */
  messages: Message[];
  usage: TurnUsage;
  /** The error that ended the turn (a provider failure, the agent exiting), if one did. */
  error?: WireError;
  /**
   * How the turn ended: `completed`; `aborted` (by this or another client, see `aborted_by`);
   * `interrupted` (the runtime or the daemon stopped mid-turn, or the connection was lost for
   * good: `error` says which); `error` (the turn failed: `error` says why).
   */
  end_reason: TurnEndReason;
  /** Who aborted the turn, when known: the aborting client's name or connection id. */
  aborted_by?: string;
  /** True when the turn was aborted, by this client or another (`end_reason: "aborted"`). */
  aborted: boolean;
  /** True when some of the turn's events were missed (reconnect): the result comes from `sync`. */
  missed_events: boolean;
}

export interface TurnControls {
  steer(message: string): Promise<void>;
  abort(): Promise<void>;
  followUp(message: string): Promise<Turn>;
}

export class Turn implements AsyncIterable<AgentStreamEvent> {
  id: string | undefined;
  readonly done: Promise<TurnResult>;
  /** The prompt text this turn was started with (follow-ups are matched by it). */
  readonly prompt: string;
  private settle!: (result: TurnResult) => void;
  private readonly queue: EventQueue<AgentStreamEvent> | undefined;
  private readonly messages: Message[] = [];
  private usage: Usage = { input: 0, output: 0 };
  private error: WireError | undefined;
  private abortedHere = false;
  private abortedBy: string | undefined;
  private finished = false;

  constructor(
    prompt: string,
    private readonly controls: TurnControls,
    record: boolean,
    bufferLimit: number,
  ) {
    this.prompt = prompt;
    this.queue = record ? new EventQueue<AgentStreamEvent>(bufferLimit) : undefined;
    this.done = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  get isFinished(): boolean {
    return this.finished;
  }

  /** Deliver a message into this turn before the next model call. */
  steer(message: string): Promise<void> {
    return this.controls.steer(message);
  }

  /** Cancel the turn; `done` resolves with `aborted: true` at its `turn_end`. */
  async abort(): Promise<void> {
    this.abortedHere = true;
    await this.controls.abort();
  }

  /** Queue a message that starts the next turn once this one ends. */
  followUp(message: string): Promise<Turn> {
    return this.controls.followUp(message);
  }

  [Symbol.asyncIterator](): AsyncIterator<AgentStreamEvent> {
    if (!this.queue) throw new Error("this turn was started without recording its events");
    return this.queue;
  }

  // ── fed by the agent ──────────────────────────────────────────────────

  push(event: AgentStreamEvent): void {
    this.queue?.push(event);
    switch (event.type) {
      case "message_complete":
        this.messages.push(event.message);
        break;
      case "tool_result":
        if (event.message_id !== undefined) this.messages.push(toolResultMessage(event, event.message_id));
        break;
      case "usage":
        this.usage = {
          input: this.usage.input + event.input,
          output: this.usage.output + event.output,
          ...(event.cost !== undefined || this.usage.cost !== undefined
            ? { cost: (this.usage.cost ?? 0) + (event.cost ?? 0) }
            : {}),
          ...(event.cost_unknown === true || this.usage.cost_unknown === true ? { cost_unknown: true } : {}),
        };
        break;
      case "error":
        // `data.status`: a provider's HTTP status (a 401 says which key to check in the message).
        this.error = {
          code: event.code,
          message: event.message,
          ...(event.data !== undefined ? { data: event.data } : {}),
        };
        break;
      default:
        break;
    }
  }

  end(event: TurnEndEvent): void {
    this.abortedBy = event.aborted_by;
    const reason = event.end_reason ?? (this.error ? "error" : this.abortedHere ? "aborted" : "completed");
    this.finish({ usage: event.usage ?? this.usage, missed: false, reason });
  }

  /**
   * The turn ended while events were missed: its messages come from the agent's live window,
   * and how it ended from the failure recorded for it (none: it completed).
   */
  endFromWindow(messages: Message[], failure?: Pick<TurnFailure, "kind" | "code" | "message">): void {
    this.messages.length = 0;
    this.messages.push(...messages);
    if (failure) this.error ??= { code: failure.code, message: failure.message };
    const reason = failure ? (failure.kind === "interrupted" ? "interrupted" : "error") : "completed";
    this.finish({ usage: this.usage, missed: true, reason });
  }

  /** Never started: dropped by an abort while it waited as a follow-up. */
  cancel(): void {
    this.abortedHere = true;
    this.finish({ usage: this.usage, missed: false, reason: "aborted" });
  }

  /** Ended without its `turn_end`: the agent, its runtime or the connection went away mid-turn. */
  fail(error: WireError, reason: TurnEndReason = "interrupted"): void {
    this.error ??= error;
    this.finish({ usage: this.usage, missed: false, reason });
  }

  private finish(end: { usage: Usage; missed: boolean; reason: TurnEndReason }): void {
    if (this.finished) return;
    this.finished = true;
    this.queue?.end();
    const result: TurnResult = {
      turn_id: this.id,
      text: lastAssistantText(this.messages),
      messages: this.messages.slice(),
      usage: withCostUsd(end.usage),
      end_reason: end.reason,
      aborted: end.reason === "aborted",
      missed_events: end.missed,
    };
    if (end.reason === "aborted" && this.abortedBy !== undefined) result.aborted_by = this.abortedBy;
    if (this.error) result.error = this.error;
    this.settle(result);
  }
}

function lastAssistantText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "assistant") continue;
    return m.content.map((b) => (b.type === "text" ? b.text : "")).join("");
  }
  return "";
}
