/**
 * SessionStore contract (ARCHITECTURE §5). One append-only JSONL file per session:
 * a header line, then one entry per line. `append` returns only once the line is written
 * to the file (it survives a kill -9 of the process), so the runtime can emit the
 * acknowledging event afterwards.
 */
import type { Message } from "../types/shared.ts";

export interface SessionHeader {
  type: "session";
  version: 1;
  session_id: string;
  cwd: string;
  created_at: number;
  /** The mode and model the session started with; later changes are entries. */
  mode?: string;
  model?: string;
  /** Present on forks. */
  fork?: { fork_id: string; source_session_id: string; source_entry_id: string };
}

interface EntryBase {
  id: string;
  parent_id: string | null;
  ts: number;
}

/** A user or assistant message. Tool results are user messages of tool_result blocks. */
export interface MessageEntry extends EntryBase {
  type: "message";
  message: Message;
  /** Set when this message delivers a steer/follow-up that was queued as that entry. */
  queued_id?: string;
}
/**
 * A steer or follow-up accepted mid-turn: on disk before its accepting response, so a crash
 * before delivery loses nothing. Not part of the conversation until a message delivers it.
 */
export interface QueuedInputEntry extends EntryBase {
  type: "queued_input";
  behavior: "steer" | "follow_up";
  message: Message;
}
/** Queued inputs that will never be delivered (the user aborted). */
export interface QueueDroppedEntry extends EntryBase {
  type: "queue_dropped";
  ids: string[];
}
export interface ToolResultEntry extends EntryBase {
  type: "tool_result";
  /** A user message holding exactly one tool_result block. */
  message: Message;
  duration_ms?: number;
}
export interface ModeChangeEntry extends EntryBase {
  type: "mode_change";
  mode: string;
}
export interface ModelChangeEntry extends EntryBase {
  type: "model_change";
  model: string;
}
export interface ReasoningChangeEntry extends EntryBase {
  type: "reasoning_change";
  model: string;
  effort: string;
}
export interface CompactionEntry extends EntryBase {
  type: "compaction";
  /** 0-based count of compactions in this session. */
  index: number;
  summary: string;
  first_kept_entry_id: string;
  /** [firstId, lastId] of the summarized entries. */
  message_range: [string, string];
  tokens_before: number;
  tokens_after: number;
}
export interface ForkCheckpointEntry extends EntryBase {
  type: "checkpoint";
  artifactKind: "fork";
  forkId: string;
  sourceSessionId: string;
  sourceEntryId: string;
}

export type SessionEntry =
  | MessageEntry
  | QueuedInputEntry
  | QueueDroppedEntry
  | ToolResultEntry
  | ModeChangeEntry
  | ModelChangeEntry
  | ReasoningChangeEntry
  | CompactionEntry
  | ForkCheckpointEntry;

/** An entry before the store gives it `id`, `parent_id` and `ts`. */
export type NewEntry = SessionEntry extends infer E
  ? E extends SessionEntry
    ? Omit<E, "id" | "parent_id" | "ts">
    : never
  : never;

export interface LiveWindow {
  /** Messages after the newest compaction; a compaction becomes a leading summary message. */
  messages: Message[];
  compaction_index?: number;
}

export interface SessionState {
  mode?: string;
  model?: string;
  /** Reasoning effort per model id. */
  reasoning: Record<string, string>;
}

export interface SessionStore {
  readonly sessionId: string;
  /** Absolute path of session.jsonl. */
  readonly path: string;
  readonly header: SessionHeader;
  append(entry: NewEntry): SessionEntry;
  entries(): readonly SessionEntry[];
  /** The id of the newest entry, or null for an empty session. */
  headId(): string | null;
  liveWindow(): LiveWindow;
  /** Mode, model and reasoning level as last recorded (header, then change entries). */
  state(): SessionState;
  close(): void;
}
