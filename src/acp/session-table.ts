/** The open ACP sessions of one editor connection, by ACP session id. */
import { RequestError } from "@agentclientprotocol/sdk";
import type { AcpSession } from "./acp-session.ts";

export class SessionTable {
  private readonly sessions = new Map<string, AcpSession>();

  get(sessionId: string): AcpSession {
    const session = this.sessions.get(sessionId);
    if (session === undefined) throw RequestError.resourceNotFound(sessionId);
    return session;
  }

  find(sessionId: string): AcpSession | undefined {
    return this.sessions.get(sessionId);
  }

  /** A session opened again (a second `session/load`) replaces the first, which is closed. */
  async add(session: AcpSession): Promise<void> {
    const before = this.sessions.get(session.id);
    this.sessions.set(session.id, session);
    if (before !== undefined && before !== session) await before.close();
  }

  async remove(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    await session?.close();
  }

  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(all.map((s) => s.close()));
  }
}
