/**
 * Connection contract: one client of an agent (stdio today, a daemon attachment later).
 * The runtime never assumes a single client; it broadcasts events to every connection.
 */
import type { AgentEvent } from "../types/catalog.ts";
import type { Response } from "../types/response.ts";

/** Everything a runtime sends a client: an event of the agent union or a correlated response. */
export type AgentServerMessage = AgentEvent | Response;

export interface Connection {
  /** Names the client in `*_resolved.source` when its answer carries no `source` of its own. */
  readonly id: string;
  /** `observer` connections never answer permission or UI requests (ARCHITECTURE §6.3). */
  readonly role: "interactive" | "observer";
  send(message: AgentServerMessage): void;
}
