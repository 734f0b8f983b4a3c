/** Random, URL-safe, prefixed ids for sessions, entries and forks. */
import { randomBytes } from "node:crypto";

function randomId(prefix: string): string {
  // 15 bytes → 20 base64url chars (120 bits): collision-free in practice, no padding.
  return `${prefix}_${randomBytes(15).toString("base64url")}`;
}

export const newSessionId = (): string => randomId("ses");
export const newEntryId = (): string => randomId("ent");
export const newForkId = (): string => randomId("frk");

const SESSION_ID = /^ses_[A-Za-z0-9_-]{1,64}$/;

/** True for a well-formed session id: safe to use as a path segment (no `/`, no `..`). */
export function isSessionId(value: string): boolean {
  return SESSION_ID.test(value);
}
