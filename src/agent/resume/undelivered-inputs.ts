/**
 * Resume repair: steer/follow-up messages that were acknowledged (a `queued_input` entry)
 * but never delivered nor dropped before the runtime died join the conversation on resume,
 * so the user sees them in `sync` and the model sees them with the next prompt. They do not
 * start a turn by themselves, just as an interrupted turn does not restart.
 */
import type { SessionStore } from "../../contracts/session-store.ts";
import type { QueuedInputEntry } from "../../types/session-entries.ts";

export function undeliveredInputs(session: SessionStore): QueuedInputEntry[] {
  const settled = new Set<string>();
  const queued: QueuedInputEntry[] = [];
  for (const entry of session.entries()) {
    if (entry.type === "queued_input") queued.push(entry);
    else if (entry.type === "message" && entry.queued_id) settled.add(entry.queued_id);
    else if (entry.type === "queue_dropped") for (const id of entry.ids) settled.add(id);
  }
  return queued.filter((q) => !settled.has(q.id));
}

/** Appends each undelivered input as a user message; returns how many. */
export function deliverUndeliveredInputs(session: SessionStore): number {
  const pending = undeliveredInputs(session);
  for (const q of pending) session.append({ type: "message", message: q.message, queued_id: q.id });
  return pending.length;
}
