/**
 * The session-first commands (docs/protocol-additions.md §3): list durable sessions, and
 * activate one to get the agent that drives it — adopting the session when no agent has yet.
 */
import { realpathSync } from "node:fs";
import { listSessions } from "../../session/list-sessions.ts";
import { SESSION_COMMAND_SCHEMAS } from "../../types/catalog.ts";
import { errorResponse, okResponse } from "../../wire/response.ts";
import { messageGuard } from "../../wire/validate.ts";
import { lookUpSession } from "../registry/session-lookup.ts";
import type { BrokerContext } from "./broker-context.ts";
import type { DaemonClient } from "./daemon-client.ts";

type SessionCommand = NonNullable<ReturnType<typeof asSessionCommand>>;

/** Narrows a validated orchestrator command to the ones this module handles. */
export const asSessionCommand = messageGuard(SESSION_COMMAND_SCHEMAS);

export async function handleSessionCommand(
  ctx: BrokerContext,
  client: DaemonClient,
  command: SessionCommand,
  log: (line: string) => void,
): Promise<void> {
  const home = ctx.registry.home;
  if (command.type === "session.list") {
    const cwd = command.cwd === undefined ? undefined : canonical(command.cwd);
    const sessions = listSessions(home, cwd, (w) => log(`session.list: ${w.message}`));
    client.send(okResponse(command, { sessions }));
    return;
  }
  const sessionId = command.session_id;
  let agentId = ctx.registry.bySession(sessionId)?.manifest.agent_id;
  let started: Awaited<ReturnType<typeof ctx.registry.ensureRunning>>;
  if (agentId !== undefined) {
    started = await ctx.registry.ensureRunning(agentId);
  } else {
    const session = lookUpSession(home, sessionId);
    if (!session.ok) return client.send(errorResponse(command, session.error));
    const created = await ctx.registry.create({ cwd: session.cwd, session_id: sessionId });
    if (!created.ok) return client.send(errorResponse(command, created.error));
    agentId = created.agent_id;
    const info = ctx.agentInfo(agentId);
    if (info) ctx.broadcast({ type: "agent_spawned", agent_id: agentId, info });
    started = created.started;
  }
  if (!started.ok) {
    // The binding is kept: activating again retries the start.
    client.send(errorResponse(command, { ...started.error, data: { agent_id: agentId } }));
    return;
  }
  client.send(okResponse(command, { agent_id: agentId, session_id: sessionId }));
}

/** A cwd filter compares canonical paths; a directory that does not exist matches nothing. */
function canonical(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return cwd;
  }
}
