/**
 * Fork (docs/protocol.md §10.1 session_op fork): materializes the live window as it was at one
 * entry into a fresh session under `forks/` of the source session's directory. The source file is
 * only read (from the store's memory), never written. The fork point is an entry id or the id
 * of a message the entry holds (`msg_…`, what clients see; docs/protocol-additions.md).
 *
 * Fork layout: a provenance checkpoint roots the chain, then the settings in force at the
 * fork point (mode, model, reasoning) so the fork resumes with them, then a copy of the
 * window's compaction (so its summary survives; its message_range keeps pointing into the
 * source, which recall follows through the provenance), then copies of the window's
 * message/tool_result rows — all with fresh ids and re-linked parent ids.
 */
import type { NewEntry, SessionStore } from "../contracts/session-store.ts";
import { atomicWriteFileSync } from "../support/atomic-write.ts";
import { describeError } from "../support/describe-error.ts";
import type { ForkCheckpointEntry, SessionEntry, SessionHeader } from "../types/session-entries.ts";
import { buildEntry } from "./entry-record.ts";
import { newEntryId, newForkId, newSessionId } from "./ids.ts";
import { isConversationEntry, windowEntriesAt } from "./live-window.ts";
import { forkFilePath } from "./paths.ts";
import { stateAt } from "./session-state.ts";

export interface ForkData {
  fork_id: string;
  session_id: string;
  head_entry_id: string;
}

export type ForkResult =
  | { ok: true; data: ForkData; path: string }
  | { ok: false; error: { code: "NOT_FOUND" | "INTERNAL_ERROR"; message: string } };

/**
 * The index of the entry with id `id`, else of the newest message or tool_result entry whose
 * message has that id; -1 when neither exists.
 */
export function forkPointIndex(entries: readonly SessionEntry[], id: string): number {
  const byEntryId = entries.findLastIndex((e) => e.id === id);
  if (byEntryId >= 0) return byEntryId;
  return entries.findLastIndex((e) => isConversationEntry(e) && e.message.id === id);
}

/** Forks at `fromId`: an entry id, or a message id (see forkPointIndex). */
export function forkSession(store: SessionStore, fromId: string): ForkResult {
  const entries = store.entries();
  const endIndex = forkPointIndex(entries, fromId);
  const forkPoint = entries[endIndex];
  if (forkPoint === undefined) {
    return {
      ok: false,
      error: {
        code: "NOT_FOUND",
        message: `no entry or message ${fromId} in session ${store.sessionId}; fork at an id from sync.live_window or message_complete`,
      },
    };
  }
  // Provenance always names the entry, whichever id the client gave.
  return forkSessionAt(store, endIndex, forkPoint.id);
}

/**
 * Forks the conversation as it was just before the user message `messageId` (a turn's prompt:
 * `restore_checkpoint` with `conversation`). Provenance names the entry before the prompt, or
 * the prompt's own entry when it opened the session (the fork then holds no message).
 */
export function forkSessionBefore(store: SessionStore, messageId: string): ForkResult {
  const entries = store.entries();
  const at = entries.findLastIndex((e) => e.type === "message" && e.message.id === messageId);
  const prompt = entries[at];
  if (prompt === undefined) {
    return {
      ok: false,
      error: { code: "NOT_FOUND", message: `no prompt ${messageId} in session ${store.sessionId}` },
    };
  }
  return forkSessionAt(store, at - 1, (entries[at - 1] ?? prompt).id);
}

/** The fork of the window that ends at `endIndex` (-1: before the first entry). */
function forkSessionAt(store: SessionStore, endIndex: number, fromEntryId: string): ForkResult {
  const entries = store.entries();
  const now = Date.now();
  const forkId = newForkId();
  const header: SessionHeader = {
    type: "session",
    version: 1,
    session_id: newSessionId(),
    cwd: store.header.cwd,
    created_at: now,
    fork: { fork_id: forkId, source_session_id: store.sessionId, source_entry_id: fromEntryId },
  };
  const checkpoint: Omit<ForkCheckpointEntry, "id" | "parent_id" | "ts"> = {
    type: "checkpoint",
    artifactKind: "fork",
    forkId,
    sourceSessionId: store.sessionId,
    sourceEntryId: fromEntryId,
  };
  // The checkpoint opens the fork, so there is always a head entry.
  let head = buildEntry(checkpoint, newEntryId(), null, now);
  const rows: SessionEntry[] = [head];
  const push = (row: NewEntry, ts = now, id = newEntryId()): void => {
    head = buildEntry(row, id, head.id, ts);
    rows.push(head);
  };

  const state = stateAt(store.header, entries, endIndex);
  if (state.mode !== undefined) push({ type: "mode_change", mode: state.mode });
  if (state.model !== undefined) push({ type: "model_change", model: state.model });
  // A fork keeps the sandbox it was taken under: it never starts looser than its source.
  if (state.sandbox !== undefined) push({ type: "sandbox_change", mode: state.sandbox });
  for (const [model, effort] of Object.entries(state.reasoning))
    push({ type: "reasoning_change", model, effort });

  const window = windowEntriesAt(entries, endIndex);
  const newIds = new Map(window.entries.map((e) => [e.id, newEntryId()]));
  if (window.compaction) {
    const { id: _id, parent_id: _parent, ts, ...compaction } = window.compaction;
    const firstKept = newIds.get(compaction.first_kept_entry_id) ?? compaction.first_kept_entry_id;
    push({ ...compaction, first_kept_entry_id: firstKept }, ts);
  }
  for (const entry of window.entries) push(entry, entry.ts, newIds.get(entry.id));

  const path = forkFilePath(store.path, header.session_id);
  const text = [header, ...rows].map((row) => `${JSON.stringify(row)}\n`).join("");
  try {
    // All or nothing: the fork appears complete or not at all.
    atomicWriteFileSync(path, text, 0o600);
  } catch (err) {
    return {
      ok: false,
      error: { code: "INTERNAL_ERROR", message: `cannot write fork ${path}: ${describeError(err)}` },
    };
  }
  return { ok: true, data: { fork_id: forkId, session_id: header.session_id, head_entry_id: head.id }, path };
}
