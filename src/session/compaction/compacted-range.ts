/**
 * Maps a compaction index back to the exact original messages it summarized (its
 * `message_range`). A fork holds only its window, so a compaction copied into a fork — and
 * any older compaction — is resolved through the fork's provenance in the source session,
 * read-only and limited to the chain up to the fork point.
 */
import type { SessionStore } from "../../contracts/session-store.ts";
import type { Message } from "../../types/messages.ts";
import type { CompactionEntry, SessionEntry } from "../../types/session-entries.ts";
import { isConversationEntry } from "../live-window.ts";
import { forkSourceFilePath } from "../paths.ts";
import { readSessionFile } from "../read-session-file.ts";

export type CompactedRange =
  | { ok: true; compaction: CompactionEntry; messages: Message[] }
  | { ok: false; validIndexes: number[]; message: string };

/** This session's entries, then each fork ancestor's entries up to the fork point, loaded on demand. */
function* lineage(store: SessionStore): Generator<readonly SessionEntry[]> {
  yield store.entries();
  let header = store.header;
  let path = store.path;
  while (header.fork) {
    const sourcePath = forkSourceFilePath(path);
    const source = readSessionFile(sourcePath);
    if (!source.ok) return;
    const forkPoint = source.entries.findIndex((e) => e.id === header.fork?.source_entry_id);
    yield forkPoint >= 0 ? source.entries.slice(0, forkPoint + 1) : source.entries;
    header = source.header;
    path = sourcePath;
  }
}

function messagesBetween(
  entries: readonly SessionEntry[],
  firstId: string,
  lastId: string,
): Message[] | null {
  const first = entries.findIndex((e) => e.id === firstId);
  if (first < 0) return null;
  const out: Message[] = [];
  for (const entry of entries.slice(first)) {
    if (isConversationEntry(entry)) out.push(entry.message);
    if (entry.id === lastId) return out;
  }
  return null;
}

export function readCompactedRange(store: SessionStore, index: number): CompactedRange {
  const layers: (readonly SessionEntry[])[] = [];
  let compaction: CompactionEntry | undefined;
  let foundIn = -1;
  for (const entries of lineage(store)) {
    layers.push(entries);
    if (compaction) {
      const messages = messagesBetween(entries, compaction.message_range[0], compaction.message_range[1]);
      if (messages) return { ok: true, compaction, messages };
      continue;
    }
    compaction = entries.find((e): e is CompactionEntry => e.type === "compaction" && e.index === index);
    if (compaction) {
      foundIn = layers.length - 1;
      const messages = messagesBetween(entries, compaction.message_range[0], compaction.message_range[1]);
      if (messages) return { ok: true, compaction, messages };
    }
  }
  const valid = new Set<number>();
  for (const entries of layers) for (const e of entries) if (e.type === "compaction") valid.add(e.index);
  const validIndexes = [...valid].sort((a, b) => a - b);
  const message =
    foundIn >= 0
      ? `the messages of compaction ${index} are no longer available (range ${compaction?.message_range.join("…")} not found)`
      : `no compaction with index ${index}`;
  return { ok: false, validIndexes, message };
}
