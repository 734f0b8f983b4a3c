/** What the engine tells its caller about one checkpoint, and how its errors look. */

export interface Checkpoint {
  /** The checkpoint's commit in the shadow repository: stable for as long as it is kept. */
  checkpoint_id: string;
  label: string;
  /** Milliseconds since the epoch. */
  created_at: number;
  /** Files added, changed or deleted since the previous checkpoint (0 for the first). */
  files_changed: number;
}

export type CheckpointErrorCode = "NOT_FOUND" | "CONFLICT" | "INTERNAL";

export interface CheckpointError {
  code: CheckpointErrorCode;
  message: string;
}

export type Outcome<T> = ({ ok: true } & T) | { ok: false; error: CheckpointError };

export function failure(code: CheckpointErrorCode, message: string): { ok: false; error: CheckpointError } {
  return { ok: false, error: { code, message } };
}
