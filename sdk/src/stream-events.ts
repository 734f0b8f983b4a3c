/**
 * What an agent's event stream yields: every protocol event of the agent, plus `gap` when the
 * SDK knows it did not see some of them (a reconnect after events went by, or a daemon whose
 * sequence started over). The state after a gap is still exact: it comes from a fresh `sync`.
 */
import type { AgentEvent } from "../../src/types/catalog.ts";

export interface GapEvent {
  type: "gap";
  agent_id?: string;
  /** `reconnect`: events went by while disconnected; `sequence_reset`: the daemon restarted. */
  reason: "reconnect" | "sequence_reset" | "seq_jump";
  /** The last `seq` seen before the gap. */
  last_seen_seq: number;
  /** The `seq` the stream resumes after (the fresh sync's). */
  resumed_at_seq: number;
  message: string;
}

export type AgentStreamEvent = AgentEvent | GapEvent;

export function gapEvent(
  reason: GapEvent["reason"],
  lastSeen: number,
  resumedAt: number,
  agentId: string | undefined,
): GapEvent {
  const message =
    reason === "sequence_reset"
      ? `the daemon's event sequence started over (it restarted): seq ${lastSeen} was the last seen, the stream resumes after ${resumedAt}`
      : `events ${lastSeen + 1}–${resumedAt} of this agent were not received; the state is current again from a fresh sync`;
  const gap: GapEvent = { type: "gap", reason, last_seen_seq: lastSeen, resumed_at_seq: resumedAt, message };
  if (agentId !== undefined) gap.agent_id = agentId;
  return gap;
}
