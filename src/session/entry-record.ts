/** Builds a stored entry from its payload: `id, parent_id, type, ts` first on disk, and store-owned fields always win. */
import type { SessionEntry } from "../types/session-entries.ts";

export function buildEntry(
  payload: { type: SessionEntry["type"] },
  id: string,
  parent_id: string | null,
  ts: number,
): SessionEntry {
  return Object.assign({ id, parent_id, type: payload.type, ts }, payload, {
    id,
    parent_id,
    ts,
  }) as SessionEntry;
}
