/**
 * Browser-style authentication for a remote daemon (PROTOCOL §4.1, docs/auth.md), for
 * scripts: enroll once with a code from `shard auth enroll` (POST /enroll → session cookie),
 * then get a single-use WebSocket ticket for every (re)connect (POST /bootstrap). Both requests
 * carry the Origin the daemon expects; the ticket is bound to it.
 */
import { ShardError } from "./errors.ts";

/** Returns a fresh, single-use WebSocket ticket; called on every connect and reconnect. */
export type TicketSource = () => Promise<string>;

export interface RemoteDaemon {
  /** The daemon's page, e.g. `http://127.0.0.1:7777` or `https://shard.example.com`. */
  url: string;
  /** The page Origin (default: the origin of `url`). */
  origin?: string;
}

export function originOf(remote: RemoteDaemon): string {
  return remote.origin ?? new URL(remote.url).origin;
}

/** Trades an enrollment code for the session cookie (`name=value`, ready for a Cookie header). */
export async function enrollWithCode(
  remote: RemoteDaemon & { code: string; label?: string },
): Promise<string> {
  const response = await post(remote, "/enroll", {
    body: JSON.stringify({ code: remote.code, ...(remote.label ? { label: remote.label } : {}) }),
    headers: { "Content-Type": "application/json" },
  });
  const cookie = response.headers.get("set-cookie")?.split(";")[0];
  if (!cookie) throw new ShardError("INTERNAL_ERROR", "/enroll answered without a session cookie");
  return cookie;
}

/** A `TicketSource` that asks `/bootstrap` with the enrolled session cookie. */
export function cookieTicketSource(remote: RemoteDaemon & { cookie: string }): TicketSource {
  return async () => {
    const response = await post(remote, "/bootstrap", { body: "", headers: { Cookie: remote.cookie } });
    const body: unknown = await response.json();
    const ticket = typeof body === "object" && body !== null && "ticket" in body ? body.ticket : undefined;
    if (typeof ticket !== "string")
      throw new ShardError("INTERNAL_ERROR", "/bootstrap answered without a ticket");
    return ticket;
  };
}

async function post(
  remote: RemoteDaemon,
  path: string,
  init: { body: string; headers: Record<string, string> },
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(new URL(path, remote.url), {
      method: "POST",
      body: init.body,
      headers: { Origin: originOf(remote), ...init.headers },
    });
  } catch (err) {
    throw new ShardError(
      "NOT_FOUND",
      `no daemon answers at ${remote.url} (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  if (response.ok) return response;
  const refusal: unknown = await response.json().catch(() => undefined);
  const message =
    typeof refusal === "object" &&
    refusal !== null &&
    "message" in refusal &&
    typeof refusal.message === "string"
      ? refusal.message
      : `${path} answered ${response.status}`;
  const code =
    response.status === 409 ? "CONFLICT" : response.status >= 500 ? "INTERNAL_ERROR" : "PERMISSION_DENIED";
  throw new ShardError(code, `${path}: ${message}`);
}
