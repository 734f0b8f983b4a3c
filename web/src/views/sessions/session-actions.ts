/**
 * The session commands behind the sessions panel, following PROTOCOL's session-first flow:
 * fork writes a new session, `session.list` shows it, `session.activate` returns the agent
 * that drives it (adopting the session when none does), and the page attaches by selecting it.
 */
import { Value } from "@sinclair/typebox/value";
import {
  SessionActivateResultSchema,
  SessionListResultSchema,
  type SessionSummary,
} from "../../../../src/types/session-first.ts";
import {
  type CompactResult,
  CompactResultSchema,
  ForkResultSchema,
} from "../../../../src/types/session-op.ts";
import type { ControlRoom } from "../../state/control-room.ts";

/** The sessions recorded in a working directory, newest first (forks included). */
export async function listSessions(room: ControlRoom, cwd: string): Promise<SessionSummary[]> {
  const data = await room.connection.call({ type: "session.list", cwd });
  return Value.Check(SessionListResultSchema, data) ? data.sessions : [];
}

/** Opens a session: the agent driving it, attached and on screen. */
export async function resumeSession(room: ControlRoom, sessionId: string): Promise<string | undefined> {
  const data = await room.connection.call({ type: "session.activate", session_id: sessionId });
  if (!Value.Check(SessionActivateResultSchema, data)) return undefined;
  room.select(data.agent_id);
  return data.agent_id;
}

/** Forks at a message (its id is accepted as the entry to fork at) and opens the fork. */
export async function forkAt(
  room: ControlRoom,
  agentId: string,
  messageId: string,
): Promise<string | undefined> {
  const data = await room.connection.call({
    type: "session_op",
    agent_id: agentId,
    op: "fork",
    args: { from_entry_id: messageId },
  });
  if (!Value.Check(ForkResultSchema, data)) return undefined;
  return resumeSession(room, data.session_id);
}

export async function compactNow(room: ControlRoom, agentId: string): Promise<CompactResult | undefined> {
  const data = await room.connection.call({ type: "session_op", agent_id: agentId, op: "compact" });
  return Value.Check(CompactResultSchema, data) ? data : undefined;
}
