/**
 * The session commands behind the sessions panel, following the session-first flow
 * (docs/protocol-additions.md §3): fork writes a new session, `session.list` shows it,
 * `session.activate` returns the agent that drives it (adopting the session when none does), and
 * the page attaches by selecting it. Every answer is checked by the connection's typed call;
 * `session_op`'s by its op as well.
 */
import { type SessionOpResultOf, sessionOpResult } from "../../../../src/client/session-op-result.ts";
import type { CompactResult, SessionOpArgs, SessionOpName } from "../../../../src/types/session-op.ts";
import type { SessionSummary } from "../../../../src/types/sessions.ts";
import { interpretedCheck } from "../../../../src/wire/schema-checker.ts";
import { RequestError } from "../../connection/daemon-connection.ts";
import type { ControlRoom } from "../../state/control-room.ts";

/** The sessions recorded in a working directory, newest first (forks included). */
export async function listSessions(room: ControlRoom, cwd: string): Promise<SessionSummary[]> {
  return (await room.connection.call({ type: "session.list", cwd })).sessions;
}

/** Opens a session: the agent driving it, attached and on screen. */
export async function resumeSession(room: ControlRoom, sessionId: string): Promise<string> {
  const { agent_id } = await room.connection.call({ type: "session.activate", session_id: sessionId });
  room.select(agent_id);
  return agent_id;
}

/** Forks at a message (its id is accepted as the entry to fork at) and opens the fork. */
export async function forkAt(room: ControlRoom, agentId: string, messageId: string): Promise<string> {
  const fork = await sessionOp(room, agentId, "fork", { from_entry_id: messageId });
  return resumeSession(room, fork.session_id);
}

export function compactNow(room: ControlRoom, agentId: string): Promise<CompactResult> {
  return sessionOp(room, agentId, "compact");
}

async function sessionOp<O extends SessionOpName>(
  room: ControlRoom,
  agentId: string,
  op: O,
  args?: SessionOpArgs,
): Promise<SessionOpResultOf<O>> {
  const data = await room.connection.call({
    type: "session_op",
    agent_id: agentId,
    op,
    ...(args !== undefined ? { args } : {}),
  });
  const checked = sessionOpResult(op, data, interpretedCheck);
  if (!checked.ok) throw new RequestError(checked.error.code, checked.error.message);
  return checked.result;
}
