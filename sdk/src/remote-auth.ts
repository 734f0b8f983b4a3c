/**
 * Browser-style authentication for a remote daemon (docs/protocol.md §3.1, docs/auth.md), for
 * scripts: enroll once with a code from `shard auth enroll` (POST /enroll → session cookie),
 * then get a single-use WebSocket ticket for every (re)connect (POST /bootstrap). Both requests
 * carry the Origin the daemon expects; the ticket is bound to it.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import {
  BootstrapAnswerSchema,
  type BootstrapRequest,
  EnrollAnswerSchema,
  type EnrollRequest,
} from "../../src/types/http-auth.ts";
import { readHttpAnswer } from "../../src/wire/http-answer.ts";
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
  const request: EnrollRequest = { code: remote.code, ...(remote.label ? { label: remote.label } : {}) };
  const { response } = await post(remote, "/enroll", request, EnrollAnswerSchema);
  const cookie = response.headers.get("set-cookie")?.split(";")[0];
  if (!cookie) throw new ShardError("INTERNAL_ERROR", "/enroll answered without a session cookie");
  return cookie;
}

/** A `TicketSource` that asks `/bootstrap` with the enrolled session cookie. */
export function cookieTicketSource(remote: RemoteDaemon & { cookie: string }): TicketSource {
  return async () => {
    const request: BootstrapRequest = {};
    const { answer } = await post(remote, "/bootstrap", request, BootstrapAnswerSchema, {
      Cookie: remote.cookie,
    });
    return answer.ticket;
  };
}

/** POSTs `body` and returns the answer checked against `schema`; a refusal or a bad answer throws. */
async function post<S extends TSchema>(
  remote: RemoteDaemon,
  path: string,
  body: object,
  schema: S,
  headers: Record<string, string> = {},
): Promise<{ response: Response; answer: Static<S> }> {
  let response: Response;
  try {
    response = await fetch(new URL(path, remote.url), {
      method: "POST",
      body: JSON.stringify(body),
      headers: { Origin: originOf(remote), "Content-Type": "application/json", ...headers },
    });
  } catch (err) {
    throw new ShardError(
      "NOT_FOUND",
      `no daemon answers at ${remote.url} (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  const read = await readHttpAnswer(response, schema);
  if (!read.ok) throw new ShardError(read.code, `${path}: ${read.message}`);
  return { response, answer: read.value };
}
