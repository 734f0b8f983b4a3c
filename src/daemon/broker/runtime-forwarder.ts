/**
 * Per-agent commands travel to the runtime under a daemon-chosen id (clients may reuse ids,
 * and some send none); the runtime's response goes back to the client that asked, with its own
 * id restored and tagged with `agent_id`.
 */
import type { AgentCommand } from "../../types/command-table.ts";
import type { Response } from "../../types/response.ts";
import { errorResponse } from "../../wire/response.ts";
import type { ClientConnection } from "./client-connection.ts";

interface Waiting {
  agentId: string;
  type: string;
  /** Absent for the daemon's own commands (headless answers). */
  client?: ClientConnection;
  id?: string;
}

export class RuntimeForwarder {
  private next = 0;
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly sendToRuntime: (agentId: string, command: AgentCommand) => boolean) {}

  /** False when the agent has no live runtime to take it. */
  forward(agentId: string, command: AgentCommand, client?: ClientConnection): boolean {
    this.next += 1;
    const runtimeId = `daemon-${this.next}`;
    const { agent_id: _routing, id, ...rest } = command;
    const waiting: Waiting = { agentId, type: command.type };
    if (client) waiting.client = client;
    if (id !== undefined) waiting.id = id;
    this.waiting.set(runtimeId, waiting);
    if (this.sendToRuntime(agentId, { ...rest, id: runtimeId })) return true;
    this.waiting.delete(runtimeId);
    return false;
  }

  response(agentId: string, response: Response): void {
    const waiting = response.id === undefined ? undefined : this.waiting.get(response.id);
    if (!waiting || waiting.agentId !== agentId) return;
    this.waiting.delete(response.id ?? "");
    if (!waiting.client) return;
    const { id: _runtimeId, ...rest } = response;
    waiting.client.send({
      ...rest,
      ...(waiting.id !== undefined ? { id: waiting.id } : {}),
      agent_id: agentId,
    });
  }

  /** A generation ended: commands it never answered fail with a message that says what to do. */
  runtimeEnded(agentId: string, reason: string): void {
    for (const [runtimeId, waiting] of this.waiting) {
      if (waiting.agentId !== agentId) continue;
      this.waiting.delete(runtimeId);
      waiting.client?.send({
        ...errorResponse(
          { type: waiting.type, ...(waiting.id !== undefined ? { id: waiting.id } : {}) },
          {
            code: "INTERNAL_ERROR",
            message: `the agent runtime ${reason} before answering; send the command again to restart it`,
          },
        ),
        agent_id: agentId,
      });
    }
  }

  clientClosed(clientId: string): void {
    for (const waiting of this.waiting.values())
      if (waiting.client?.id === clientId) waiting.client = undefined;
  }
}
