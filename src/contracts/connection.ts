/**
 * Connection contract: the client of an agent runtime (stdio for `shard agent`, an
 * in-process connection for `shard run`). Roles and many clients are the daemon's
 * (src/daemon/broker), which is itself one stdio client of each runtime.
 */
import type { AgentEvent } from "../types/catalog.ts";
import type { Response } from "../types/response.ts";

/** Everything a runtime sends a client: an event of the agent union or a correlated response. */
export type AgentServerMessage = AgentEvent | Response;

export interface Connection {
  /** Names the client in `*_resolved.source` when its answer carries no `source` of its own. */
  readonly id: string;
  send(message: AgentServerMessage): void;
}
