/**
 * Opens the page's WebSocket to the daemon for the request channel: a fresh ticket from
 * `/bootstrap` for every connect (so a restarted daemon is reached with a ticket it issued),
 * offered as `shard.v1, shard.ticket.<t>`, one JSON message per text frame. A browser whose
 * session was revoked gets no ticket: that failure is final (no retry).
 */
import type { Connect, Connected } from "../../../src/client/channel-transport.ts";
import { deliverFrame } from "../../../src/client/websocket-frame.ts";
import { failure } from "../../../src/wire/errors.ts";
import { fetchTicket } from "../auth/ticket.ts";
import { closeReason } from "./close-reason.ts";

/** A socket that has not opened by then (a daemon that accepts but hangs) is given up. */
const OPEN_TIMEOUT_MS = 10_000;
const NORMAL_CLOSURE = 1000;

export const websocketConnect: Connect = async (sink) => {
  const ticket = await fetchTicket();
  if (!ticket.ok) {
    const code = ticket.notEnrolled ? "PERMISSION_DENIED" : "NOT_ATTACHED";
    return { ...failure(code, ticket.message), retry: !ticket.notEnrolled };
  }
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${window.location.host}/ws`, [
    "shard.v1",
    `shard.ticket.${ticket.ticket}`,
  ]);
  return new Promise<Connected>((resolve) => {
    let open = false;
    const openTimer = setTimeout(
      () => ws.close(4002, "the daemon did not accept the connection in time"),
      OPEN_TIMEOUT_MS,
    );
    ws.onopen = () => {
      clearTimeout(openTimer);
      open = true;
      resolve({
        ok: true,
        transport: {
          send: (message) => {
            if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
          },
          close: (reason) => ws.close(NORMAL_CLOSURE, reason),
        },
      });
    };
    ws.onmessage = (event) => deliverFrame(event.data, sink);
    ws.onclose = (event) => {
      clearTimeout(openTimer);
      const reason = closeReason(event.code, event.reason);
      if (open) sink.closed(reason);
      else resolve({ ...failure("NOT_ATTACHED", reason), retry: true });
    };
  });
};
