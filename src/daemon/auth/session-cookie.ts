/**
 * The session cookie (docs/protocol.md §3.1; docs/auth.md, The session cookie): HttpOnly,
 * SameSite=Strict, Path=/; the `__Host-` name and Secure iff the request's effective scheme is
 * https. Which form a request carries is checked against its scheme: a Secure-form cookie over
 * plain http is refused.
 */
import { SECRET_PATTERN } from "./secrets.ts";

export type Scheme = "http" | "https";

export const PLAIN_COOKIE = "shard_session";
export const SECURE_COOKIE = "__Host-shard_session";
/** 400 days, the longest lifetime browsers keep; revocation is the way to end a session early. */
export const COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;

export function cookieName(scheme: Scheme): string {
  return scheme === "https" ? SECURE_COOKIE : PLAIN_COOKIE;
}

export function setCookieHeader(scheme: Scheme, token: string): string {
  const attributes = ["HttpOnly", "SameSite=Strict", "Path=/", `Max-Age=${COOKIE_MAX_AGE_S}`];
  if (scheme === "https") attributes.push("Secure");
  return `${cookieName(scheme)}=${token}; ${attributes.join("; ")}`;
}

export type CookieRead =
  | { kind: "token"; token: string }
  | { kind: "none" }
  | { kind: "refused"; message: string };

/** The session token of a request, judged against its effective scheme. */
export function readSessionCookie(cookieHeader: string | undefined, scheme: Scheme): CookieRead {
  const values = new Map<string, string[]>();
  for (const part of (cookieHeader ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (name !== PLAIN_COOKIE && name !== SECURE_COOKIE) continue;
    values.set(name, [...(values.get(name) ?? []), part.slice(eq + 1).trim()]);
  }
  if (scheme === "http" && values.has(SECURE_COOKIE)) {
    return {
      kind: "refused",
      message: "a Secure (__Host-) session cookie arrived over plain http; use the https address",
    };
  }
  const found = values.get(cookieName(scheme)) ?? [];
  if (found.length === 0) return { kind: "none" };
  // Two cookies of one name (another path or a planted one): never guess which is ours.
  if (found.length > 1)
    return {
      kind: "refused",
      message: "more than one session cookie; clear this site's cookies and enroll again",
    };
  const token = found[0] ?? "";
  if (!SECRET_PATTERN.test(token))
    return { kind: "refused", message: "the session cookie is malformed; enroll again" };
  return { kind: "token", token };
}
