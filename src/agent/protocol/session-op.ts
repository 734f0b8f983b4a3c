/**
 * `session_op` (docs/protocol.md §10.1): list, compact and fork, with the exact lifecycle and error
 * mappings of the spec. Compact and fork are between-turn operations: CONFLICT while a turn
 * is queued or in flight.
 */

import { validateKeepRecentTokens } from "../../session/compaction/compaction-config.ts";
import { forkSession } from "../../session/fork-session.ts";
import { listSessions } from "../../session/list-sessions.ts";
import type {
  CompactResult,
  ForkResult,
  SessionOpArgs,
  SessionOpCommand,
  SessionOpResult,
} from "../../types/session-op.ts";
import type { AgentRuntime } from "../runtime.ts";
import { type DeferredReply, fail, type Reply } from "./reply.ts";

export function handleSessionOp(
  runtime: AgentRuntime,
  command: SessionOpCommand,
): Reply<SessionOpResult> | DeferredReply<SessionOpResult> {
  const args: SessionOpArgs = command.args ?? {};
  switch (command.op) {
    case "list":
      return {
        ok: true,
        data: {
          sessions: listSessions(runtime.options.home, runtime.options.cwd),
          active: runtime.session.sessionId,
        },
      };
    case "compact":
      return compact(runtime, args);
    case "fork":
      return fork(runtime, args);
  }
}

/** Answers when the compaction ends; commands behind it (`abort` above all) go on meanwhile. */
function compact(
  runtime: AgentRuntime,
  args: SessionOpArgs,
): Reply<CompactResult> | DeferredReply<CompactResult> {
  const keep = args.keep_recent_tokens;
  if (keep !== undefined) {
    const checked = validateKeepRecentTokens(keep);
    if (!checked.ok) return { ok: false, error: checked.error };
  }
  if (!runtime.isBetweenTurns())
    return fail("CONFLICT", "compaction runs between turns; a turn is queued or in flight");
  return { deferred: runCompaction(runtime, keep) };
}

async function runCompaction(runtime: AgentRuntime, keep: number | undefined): Promise<Reply<CompactResult>> {
  const manual = await runtime.compactNow(keep);
  const { outcome } = manual;
  // A prompt that arrived while compacting was queued as a follow-up: start it once idle.
  const release = () => {
    manual.release();
    runtime.startNextFollowUp();
  };
  // `status idle` follows the response on every outcome (docs/protocol.md, `session_op`).
  if ("error" in outcome) return { ok: false, error: outcome.error, after: release };
  return { ok: true, data: outcome, after: release };
}

function fork(runtime: AgentRuntime, args: SessionOpArgs): Reply<ForkResult> {
  const from = args.from_entry_id;
  if (typeof from !== "string" || from === "") {
    return fail(
      "INVALID_REQUEST",
      'session_op fork: field "args.from_entry_id": a non-empty string is required (an entry id, or a message id from sync.live_window or message_complete)',
    );
  }
  if (!runtime.isBetweenTurns())
    return fail("CONFLICT", "fork runs between turns; a turn is queued or in flight");
  const result = forkSession(runtime.session, from);
  if (!result.ok) return { ok: false, error: result.error };
  return { ok: true, data: result.data };
}
