/**
 * The agent's own session (`session_op`, docs/protocol.md §10.1): list the sessions of its cwd,
 * compact the live window, fork at a message into a new session.
 */

import { type SessionOpResultOf, sessionOpResult } from "../../src/client/session-op-result.ts";
import type {
  CompactResult,
  ForkResult,
  SessionOpArgs,
  SessionOpName,
  SessionOpResult,
} from "../../src/types/session-op.ts";
import type { SessionSummary } from "../../src/types/sessions.ts";
import { sharedCheck } from "../../src/wire/schema-check.ts";
import type { AgentCallOf } from "./agent-link.ts";
import { ShardError } from "./errors.ts";

export interface AgentSessionList {
  sessions: SessionSummary[];
  /** The session this agent writes. */
  active: string;
}

export class AgentSessions {
  constructor(private readonly call: (command: AgentCallOf<"session_op">) => Promise<SessionOpResult>) {}

  async list(): Promise<AgentSessionList> {
    return answerOf("list", await this.call({ type: "session_op", op: "list" }));
  }

  /** Compacts the live window now (between turns only: CONFLICT while one runs). */
  async compact(args: Pick<SessionOpArgs, "keep_recent_tokens"> = {}): Promise<CompactResult> {
    return answerOf("compact", await this.call({ type: "session_op", op: "compact", args }));
  }

  /** Forks at an entry or message id (from `state.live_window`) into a new session. */
  async fork(fromId: string): Promise<ForkResult> {
    const data = await this.call({ type: "session_op", op: "fork", args: { from_entry_id: fromId } });
    return answerOf("fork", data);
  }
}

/** `session_op` answers by op: the one asked for, or the server is out of step with the SDK. */
function answerOf<O extends SessionOpName>(op: O, data: SessionOpResult): SessionOpResultOf<O> {
  const checked = sessionOpResult(op, data, sharedCheck);
  if (!checked.ok) throw ShardError.from(checked.error);
  return checked.result;
}
