/**
 * The session-first commands (docs/protocol-additions.md §3): list durable sessions, and
 * activate one to get the agent that drives it — adopting the session when no agent has yet.
 */
import { realpathSync } from "node:fs";
import { listSessions } from "../../session/list-sessions.ts";
import type { CommandMap, ResultMap } from "../../types/command-table.ts";
import { lookUpSession } from "../registry/session-lookup.ts";
import type { BrokerContext } from "./broker-context.ts";
import { type Answer, answer, type HandlersOf } from "./command-handlers.ts";

export function sessionHandlers(ctx: BrokerContext, log: (line: string) => void): HandlersOf<"sessions"> {
  return {
    "session.list": (_client, command) => {
      const cwd = command.cwd === undefined ? undefined : canonical(command.cwd);
      return answer({
        sessions: listSessions(ctx.registry.home, cwd, (w) => log(`session.list: ${w.message}`)),
      });
    },
    "session.activate": (_client, command) => activate(ctx, command),
  };
}

async function activate(
  ctx: BrokerContext,
  command: CommandMap["session.activate"],
): Promise<Answer<ResultMap["session.activate"]>> {
  const sessionId = command.session_id;
  let agentId = ctx.registry.bySession(sessionId)?.manifest.agent_id;
  let started: Awaited<ReturnType<typeof ctx.registry.ensureRunning>>;
  if (agentId !== undefined) {
    started = await ctx.registry.ensureRunning(agentId);
  } else {
    const session = lookUpSession(ctx.registry.home, sessionId);
    if (!session.ok) return session;
    const created = await ctx.registry.create({ cwd: session.cwd, session_id: sessionId });
    if (!created.ok) return created;
    agentId = created.agent_id;
    const info = ctx.agentInfo(agentId);
    if (info) ctx.broadcast({ type: "agent_spawned", agent_id: agentId, info });
    started = created.started;
  }
  // The binding is kept: activating again retries the start.
  if (!started.ok) return { ok: false, error: { ...started.error, data: { agent_id: agentId } } };
  return answer({ agent_id: agentId, session_id: sessionId });
}
/** A cwd filter compares canonical paths; a directory that does not exist matches nothing. */
function canonical(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return cwd;
  }
}
