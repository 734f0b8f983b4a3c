/** Builds a stored entry from its payload: `id, parent_id, type, ts` first on disk, and store-owned fields always win. */
import type { NewEntry } from "../contracts/session-store.ts";
import type { SessionEntry } from "../types/session-entries.ts";

export function buildEntry(
  payload: NewEntry,
  id: string,
  parent_id: string | null,
  ts: number,
): SessionEntry {
  const leading = { id, parent_id, type: payload.type, ts };
  return { ...leading, ...payload, id, parent_id, ts };
}
