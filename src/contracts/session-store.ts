/**
 * SessionStore contract (docs/architecture.md §9.2). One append-only JSONL file per session:
 * a header line, then one entry per line. `append` returns only once the line is written
 * to the file (it survives a kill -9 of the process), so the runtime can emit the
 * acknowledging event afterwards.
 */
import type { LiveWindow } from "../types/agent-events.ts";
import type { SandboxMode } from "../types/sandbox.ts";
import type { SessionEntry, SessionHeader } from "../types/session-entries.ts";

/** An entry before the store gives it `id`, `parent_id` and `ts`. */
export type NewEntry = SessionEntry extends infer E
  ? E extends SessionEntry
    ? Omit<E, "id" | "parent_id" | "ts">
    : never
  : never;

export interface SessionState {
  mode?: string;
  model?: string;
  /** The sandbox mode last chosen (a flag, `agent.create`, `set_sandbox`); absent: never chosen. */
  sandbox?: SandboxMode;
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
  /** Messages after the newest compaction; a compaction becomes a leading summary message. */
  liveWindow(): LiveWindow;
  /** Mode, model and reasoning level as last recorded (header, then change entries). */
  state(): SessionState;
  close(): void;
}
