/**
 * The agent's own session (`session_op`, PROTOCOL §9.2): list the sessions of its cwd, compact
 * the live window, fork at a message into a new session.
 */

import type { SessionSummary } from "../../src/types/session-first.ts";
import type { CompactResult, ForkResult, SessionOpArgs } from "../../src/types/session-op.ts";
import type { AgentOutbound } from "./agent-link.ts";
import { ShardError } from "./errors.ts";
import { checkedResult } from "./results.ts";

export interface AgentSessionList {
  sessions: SessionSummary[];
  /** The session this agent writes. */
  active: string;
}

export class AgentSessions {
  constructor(private readonly call: (command: AgentOutbound) => Promise<unknown>) {}

  async list(): Promise<AgentSessionList> {
    const data = await this.call({ type: "session_op", op: "list" });
    const { sessions } = checkedResult("session.list", data);
    const active = typeof data === "object" && data !== null && "active" in data ? data.active : undefined;
    if (typeof active !== "string") {
      throw new ShardError("INTERNAL_ERROR", 'session_op list: the answer has no "active" session id');
    }
    return { sessions, active };
  }

  /** Compacts the live window now (between turns only: CONFLICT while one runs). */
  async compact(args: Pick<SessionOpArgs, "keep_recent_tokens"> = {}): Promise<CompactResult> {
    return checkedResult("compact", await this.call({ type: "session_op", op: "compact", args }));
  }

  /** Forks at an entry or message id (from `state.live_window`) into a new session. */
  async fork(fromId: string): Promise<ForkResult> {
    return checkedResult(
      "fork",
      await this.call({ type: "session_op", op: "fork", args: { from_entry_id: fromId } }),
    );
  }
}
