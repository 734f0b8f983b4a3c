/**
 * Which `error` event failed a turn. The runtime reports the error that ended a turn right
 * before that turn's `turn_end`; a non-fatal error anywhere else in the stream is a warning (a
 * grants file it could not trust, a headless TIMEOUT, a compaction that failed) and the turn
 * goes on. `shard run`'s exit code and a subagent run's state both read it from here.
 */
import type { AgentEvent } from "../types/catalog.ts";
import type { ErrorEvent } from "../types/stream-events.ts";

export class TurnErrorWatch {
  private last: ErrorEvent | undefined;

  /** Feeds one event; at a `turn_end`, the error that ended that turn, if one did. */
  event(event: AgentEvent): ErrorEvent | undefined {
    if (event.type === "error") {
      this.last = event;
      return undefined;
    }
    const ended = event.type === "turn_end" ? this.last : undefined;
    this.last = undefined;
    return ended;
  }

  /** An event that is neither an error nor a `turn_end` came (one not parsed: a forwarded delta). */
  other(): void {
    this.last = undefined;
  }
}
