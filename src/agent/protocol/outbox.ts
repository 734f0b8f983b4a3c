/**
 * Every event leaves through here: stamped with the runtime's monotonic `seq`, folded into
 * the agent's snapshot, and sent to the attached connection (one in practice: stdio, or
 * `shard run`'s in-process client). The daemon re-stamps `seq` across generations and fans
 * out to its own clients (docs/daemon.md).
 */
import type { Connection } from "../../contracts/connection.ts";
import { type AgentSnapshot, syncFromSnapshot } from "../../snapshot/agent-snapshot.ts";
import { applyEvent } from "../../snapshot/apply-event.ts";
import type { AgentEvent, UnsequencedAgentEvent } from "../../types/catalog.ts";
import type { Response } from "../../types/response.ts";

export class Outbox {
  private seq = 0;
  private readonly connections = new Map<string, Connection>();

  /** `snapshot` is the state every emitted event has been applied to. */
  constructor(private current: AgentSnapshot) {}

  get snapshot(): AgentSnapshot {
    return this.current;
  }

  attach(connection: Connection): void {
    this.connections.set(connection.id, connection);
  }

  detach(connectionId: string): void {
    this.connections.delete(connectionId);
  }

  /** The seq of the newest event: what a fresh sync is current up to. */
  lastSeq(): number {
    return this.seq;
  }

  emit(event: UnsequencedAgentEvent): void {
    this.seq += 1;
    const stamped: AgentEvent = { ...event, seq: this.seq };
    this.current = applyEvent(this.current, stamped);
    for (const c of this.connections.values()) c.send(stamped);
  }

  /**
   * The agent's state was replaced rather than changed by an event (the session switched to a
   * fork): `snapshot` becomes the state, and every connection gets it as a `sync` at the current
   * seq, as at attach (a client's reducer takes a `sync` as the whole state).
   */
  resync(snapshot: AgentSnapshot): void {
    this.current = { ...snapshot, last_seq: this.seq };
    const sync = syncFromSnapshot(this.current);
    for (const c of this.connections.values()) c.send({ ...sync, seq: this.seq });
  }

  /** Responses are correlated replies to the sender, not events: no seq. */
  reply(connection: Connection, response: Response): void {
    connection.send(response);
  }

  /** Sends an event to a single connection (hello/sync on attach) with the current seq. */
  sendTo(connection: Connection, event: UnsequencedAgentEvent): void {
    connection.send({ ...event, seq: this.seq });
  }
}
