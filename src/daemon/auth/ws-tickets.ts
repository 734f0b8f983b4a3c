/**
 * WebSocket tickets (docs/protocol.md §3.1): short-lived, single use, bound to the principal, the
 * session and the exact serialized Origin they were issued for. Consuming is one synchronous
 * Map delete, so of two upgrades racing with one ticket exactly one gets it. Only hashes are
 * held, in memory.
 */
import type { Clock } from "./clock.ts";
import { hashSecret, newSecret, SECRET_PATTERN } from "./secrets.ts";

export const TICKET_TTL_MS = 30 * 1000;
/** Outstanding tickets kept; issuing past this drops the oldest (memory stays bounded). */
export const MAX_OPEN_TICKETS = 1024;

export interface TicketBinding {
  browserId: string;
  sessionId: string;
  origin: string;
}

interface OpenTicket extends TicketBinding {
  expiresAt: number;
}

export type TicketCheck =
  | { ok: true; binding: TicketBinding }
  | { ok: false; reason: "unknown" | "expired" | "wrong_origin" };

export class WsTickets {
  private readonly open = new Map<string, OpenTicket>();

  constructor(private readonly clock: Clock) {}

  issue(binding: TicketBinding): { ticket: string; expires_at: number } {
    this.prune();
    while (this.open.size >= MAX_OPEN_TICKETS) {
      const oldest = this.open.keys().next().value;
      if (oldest === undefined) break;
      this.open.delete(oldest);
    }
    const ticket = newSecret();
    const expires_at = this.clock() + TICKET_TTL_MS;
    this.open.set(hashSecret(ticket), { ...binding, expiresAt: expires_at });
    return { ticket, expires_at };
  }

  /** Consumes the ticket whatever the outcome: a ticket presented once is gone. */
  consume(ticket: string, origin: string): TicketCheck {
    if (!SECRET_PATTERN.test(ticket)) return { ok: false, reason: "unknown" };
    const hash = hashSecret(ticket);
    const found = this.open.get(hash);
    if (!found) return { ok: false, reason: "unknown" };
    this.open.delete(hash);
    if (found.expiresAt <= this.clock()) return { ok: false, reason: "expired" };
    if (found.origin !== origin) return { ok: false, reason: "wrong_origin" };
    const { expiresAt: _expiresAt, ...binding } = found;
    return { ok: true, binding };
  }

  /** Drops the open tickets of a revoked browser. */
  revokeBrowser(browserId: string): void {
    for (const [hash, t] of this.open) if (t.browserId === browserId) this.open.delete(hash);
  }

  private prune(): void {
    const now = this.clock();
    for (const [hash, t] of this.open) if (t.expiresAt <= now) this.open.delete(hash);
  }
}
