/**
 * The typed form of a `restore_checkpoint` refused with `CONFLICT` because files changed since
 * the agent's last turn would be overwritten (docs/checkpoints.md): the caller reads `conflicts`,
 * asks, and calls `restore(id, { force: true })` to overwrite them.
 */
import { restoreConflicts } from "../../src/client/restore-conflicts.ts";
import { ShardError } from "./errors.ts";

export class CheckpointConflictError extends ShardError {
  constructor(
    message: string,
    /** The paths (relative to the agent's cwd) the restore would overwrite. */
    readonly conflicts: string[],
  ) {
    super("CONFLICT", message, { conflicts });
  }

  /** A CONFLICT naming files becomes this error; any other error (a turn running, …) stays as is. */
  static fromError(error: ShardError): ShardError {
    if (error.code !== "CONFLICT") return error;
    const conflicts = restoreConflicts(error.data);
    return conflicts === undefined ? error : new CheckpointConflictError(error.message, conflicts);
  }
}
