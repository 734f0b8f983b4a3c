/**
 * Every event leaves through here: stamped with a per-agent monotonic `seq`
 * (ARCHITECTURE §6.1) and broadcast to every attached connection. The runtime never
 * assumes a single client.
 */
import type { Connection } from "../contracts/connection.ts";

export type OutboundEvent = { type: string } & Record<string, unknown>;

export class Outbox {
  private seq = 0;
  private readonly connections = new Map<string, Connection>();

  attach(connection: Connection): void {
    this.connections.set(connection.id, connection);
  }

  detach(connectionId: string): void {
    this.connections.delete(connectionId);
  }

  /** True when at least one attached client can answer permission and UI requests. */
  hasInteractiveResponder(): boolean {
    for (const c of this.connections.values()) if (c.role === "interactive") return true;
    return false;
  }

  /** The seq the next event will carry minus one: what a fresh sync is current up to. */
  lastSeq(): number {
    return this.seq;
  }

  emit(event: OutboundEvent): void {
    this.seq += 1;
    const stamped = { ...event, seq: this.seq };
    for (const c of this.connections.values()) c.send(stamped);
  }

  /** Responses are correlated replies to one client, not events: no seq, not broadcast. */
  reply(connection: Connection, response: Record<string, unknown>): void {
    connection.send(response);
  }

  /** Sends an event to a single connection (hello/sync on attach) with the current seq. */
  sendTo(connection: Connection, event: OutboundEvent): void {
    connection.send({ ...event, seq: this.seq });
  }
}
