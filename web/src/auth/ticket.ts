/** A single-use WebSocket ticket from `POST /bootstrap` (needs the session cookie). */
import { BootstrapAnswerSchema, type BootstrapRequest } from "../../../src/types/http-auth.ts";
import { postJson } from "./http-json.ts";

export type TicketResult =
  | { ok: true; ticket: string }
  | { ok: false; notEnrolled: boolean; message: string };

export async function fetchTicket(): Promise<TicketResult> {
  const request: BootstrapRequest = {};
  const result = await postJson("/bootstrap", request, BootstrapAnswerSchema);
  if (result.ok) return { ok: true, ticket: result.value.ticket };
  return { ok: false, notEnrolled: result.status === 401 || result.status === 403, message: result.message };
}
