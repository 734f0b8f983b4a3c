/** Ids of sessions, entries and forks, and the session-id check that makes one safe as a path. */
import { newId } from "../support/ids.ts";

export const newSessionId = (): string => newId("ses");
export const newEntryId = (): string => newId("ent");
export const newForkId = (): string => newId("frk");

const SESSION_ID = /^ses_[A-Za-z0-9_-]{1,64}$/;

/** True for a well-formed session id: safe to use as a path segment (no `/`, no `..`). */
export function isSessionId(value: string): boolean {
  return SESSION_ID.test(value);
}
