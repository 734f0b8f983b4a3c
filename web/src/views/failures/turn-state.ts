/**
 * What the agent's last turn came to, as the header and the agent list both say it (one
 * function, so they agree): a provider retry in progress, or a failed or interrupted turn that
 * is still the end of the transcript (nothing ran since). Undefined otherwise: the status says it.
 */
import type { AgentSnapshot } from "../../../../src/snapshot/agent-snapshot.ts";
import type { TurnFailure } from "../../../../src/types/turn-failures.ts";

/** `short` for the agent list, `long` for the header (a failure's message is in the transcript). */
export interface TurnState {
  kind: "retrying" | "failed" | "interrupted";
  short: string;
  long: string;
}

export function turnState(snapshot: AgentSnapshot | undefined): TurnState | undefined {
  if (snapshot === undefined) return undefined;
  const retry = snapshot.retry;
  if (retry !== undefined) {
    const short = `retrying ${retry.attempt}/${retry.max_attempts}`;
    return { kind: "retrying", short, long: `${short} in ${seconds(retry.delay_ms)}: ${retry.reason}` };
  }
  const failure = lastFailure(snapshot);
  if (failure === undefined) return undefined;
  const label = failure.kind === "failed" ? "last turn failed" : "last turn interrupted";
  return { kind: failure.kind, short: label, long: label };
}

/** The newest failure, while it is the end of the transcript and no turn runs. */
export function lastFailure(snapshot: AgentSnapshot): TurnFailure | undefined {
  if (snapshot.turn_id !== undefined || snapshot.streaming_message !== undefined) return undefined;
  const failure = snapshot.live_window.failures?.at(-1);
  const last = snapshot.live_window.messages.at(-1);
  return failure !== undefined && last !== undefined && failure.after_message_id === last.id
    ? failure
    : undefined;
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${s < 10 ? Number(s.toFixed(1)) : Math.round(s)} s`;
}
