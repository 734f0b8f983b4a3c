/**
 * The ticket travels in `Sec-WebSocket-Protocol: shard.v1, shard.ticket.<t>` (never in the URL,
 * so never in a log) and the daemon answers with exactly `shard.v1`, never echoing the ticket.
 */
import { SECRET_PATTERN } from "./secrets.ts";

export const SHARD_SUBPROTOCOL = "shard.v1";
export const TICKET_PREFIX = "shard.ticket.";
/** Longer than any honest offer; past it the header is refused unparsed. */
export const MAX_PROTOCOL_HEADER_BYTES = 256;

export type OfferedTicket = { ok: true; ticket: string } | { ok: false; message: string };

export function parseTicketProtocols(header: string | null): OfferedTicket {
  if (header === null || header.trim() === "") {
    return {
      ok: false,
      message: `offer the subprotocols ${SHARD_SUBPROTOCOL} and ${TICKET_PREFIX}<ticket from POST /bootstrap>`,
    };
  }
  if (header.length > MAX_PROTOCOL_HEADER_BYTES) {
    return { ok: false, message: `Sec-WebSocket-Protocol is longer than ${MAX_PROTOCOL_HEADER_BYTES} bytes` };
  }
  const offered = header.split(",").map((p) => p.trim());
  if (!offered.includes(SHARD_SUBPROTOCOL)) {
    return { ok: false, message: `offer the subprotocol ${SHARD_SUBPROTOCOL} with the ticket` };
  }
  const tickets = offered.filter((p) => p.startsWith(TICKET_PREFIX));
  if (tickets.length !== 1) {
    return { ok: false, message: `offer exactly one ${TICKET_PREFIX}<ticket>` };
  }
  const ticket = (tickets[0] ?? "").slice(TICKET_PREFIX.length);
  if (!SECRET_PATTERN.test(ticket)) return { ok: false, message: "the WebSocket ticket is malformed" };
  return { ok: true, ticket };
}
