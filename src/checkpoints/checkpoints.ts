/**
 * The checkpoint engine of one agent: `checkpoint` records the whole work tree, `list` shows
 * what is kept, `restore` puts the tree back as it was at a checkpoint, after a checkpoint of
 * the current state so the restore can be undone. One operation at a time: each waits for the
 * one before it, so a restore never sees half a checkpoint.
 */
import { treeDiff } from "../git/tree-diff.ts";
import { describeError } from "../support/describe-error.ts";
import type { WorkspaceDiffFile } from "../types/workspace.ts";
import { afterTree, setAfterTree } from "./after-tree.ts";
import type { Checkpoint, CheckpointError, Outcome } from "./checkpoint.ts";
import { failure } from "./checkpoint.ts";
import { type LoggedCheckpoint, listCheckpoints, recordCheckpoint } from "./checkpoint-log.ts";
import { checkOutTree, knownTree, outsideChanges, setKnownTree } from "./restore.ts";
import { DEFAULT_RETENTION, enforceRetention, type Retention } from "./retention.ts";
import { openShadowRepository, type ShadowRepository } from "./shadow-repository.ts";
import { changedPaths, snapshotTree } from "./tree-snapshot.ts";

export interface CheckpointsOptions {
  /** The shadow repository's git dir, private to one session (`$SHARD_HOME/checkpoints/<session_id>`). */
  gitDir: string;
  /** The agent's working directory: the shadow's work tree. */
  cwd: string;
  retention?: Partial<Retention>;
}

export type RestoreOutcome =
  | {
      ok: true;
      restored: Checkpoint;
      /** The checkpoint of the tree just before the restore: restoring it undoes this one. */
      undo: Checkpoint;
      /** The paths the restore wrote or deleted. */
      files: string[];
    }
  | {
      ok: false;
      error: CheckpointError;
      /** With CONFLICT: the files changed outside the checkpoints that the restore would overwrite. */
      conflicts?: string[];
    };

export type DiffOutcome =
  | {
      ok: true;
      checkpoint: Checkpoint;
      /** Bounded like every tree diff (src/git/tree-diff.ts): `truncated` when cut. */
      files: WorkspaceDiffFile[];
      truncated: boolean;
    }
  | { ok: false; error: CheckpointError };

export class Checkpoints {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly shadow: ShadowRepository,
    private readonly retention: Retention,
  ) {}

  static async open(options: CheckpointsOptions): Promise<Outcome<{ checkpoints: Checkpoints }>> {
    try {
      const opened = await openShadowRepository(options.gitDir, options.cwd);
      if (!opened.ok) return failure("INTERNAL", `no checkpoints for ${options.cwd}: ${opened.message}`);
      const retention = { ...DEFAULT_RETENTION, ...options.retention };
      return { ok: true, checkpoints: new Checkpoints(opened.shadow, retention) };
    } catch (err) {
      return failure("INTERNAL", `no checkpoints for ${options.cwd}: ${describeError(err)}`);
    }
  }

  checkpoint(label: string): Promise<Outcome<{ checkpoint: Checkpoint }>> {
    return this.serially(async () => {
      const tree = await snapshotTree(this.shadow);
      return { ok: true, checkpoint: await this.record(tree, label) };
    });
  }

  /**
   * Notes the tree as the agent left it (at the end of a turn), without a checkpoint: a later
   * restore then reports only what changed after this, i.e. what someone else changed. Without
   * it, the agent's own edits since the newest checkpoint would be reported too.
   */
  settle(): Promise<Outcome<{ files_changed: number }>> {
    return this.serially(async () => {
      const { run } = this.shadow;
      const tree = await snapshotTree(this.shadow);
      const newest = (await listCheckpoints(run))[0];
      await setKnownTree(run, tree);
      if (newest !== undefined) await setAfterTree(run, newest.checkpoint_id, tree);
      return {
        ok: true,
        files_changed: newest === undefined ? 0 : (await changedPaths(run, newest.tree, tree)).length,
      };
    });
  }

  /** Newest first. */
  list(): Promise<Outcome<{ checkpoints: Checkpoint[] }>> {
    return this.serially(async () => ({
      ok: true,
      checkpoints: (await listCheckpoints(this.shadow.run)).map(publicCheckpoint),
    }));
  }

  restore(checkpointId: string, options: { force?: boolean } = {}): Promise<RestoreOutcome> {
    return this.serially(async (): Promise<RestoreOutcome> => {
      const { run } = this.shadow;
      const all = await listCheckpoints(run);
      const target = all.find((c) => c.checkpoint_id === checkpointId);
      if (target === undefined) return failure("NOT_FOUND", `no checkpoint ${checkpointId}`);
      const current = await snapshotTree(this.shadow);
      const known = (await knownTree(run)) ?? all[0]?.tree ?? current;
      const conflicts = await outsideChanges(run, current, target.tree, known);
      if (conflicts.length > 0 && options.force !== true) {
        return {
          ...failure(
            "CONFLICT",
            `${conflicts.length} file(s) changed since the last checkpoint would be overwritten; restore with force to overwrite them`,
          ),
          conflicts,
        };
      }
      const undo = await this.record(current, `before restoring ${target.label}`);
      const files = await changedPaths(run, current, target.tree);
      await checkOutTree(run, target.tree);
      await setKnownTree(run, target.tree);
      await setAfterTree(run, undo.checkpoint_id, target.tree);
      return { ok: true, restored: publicCheckpoint(target), undo, files };
    });
  }

  /**
   * What the checkpoint's turn changed: its tree against the tree the turn left (recorded by
   * `settle()`; for a restore's undo checkpoint, the tree the restore wrote). A turn that has
   * not ended yet (or never settled) is compared with the next checkpoint, or, for the newest,
   * with the files as they are now.
   */
  diff(checkpointId: string): Promise<DiffOutcome> {
    return this.serially(async (): Promise<DiffOutcome> => {
      const { run } = this.shadow;
      const all = await listCheckpoints(run);
      const at = all.findIndex((c) => c.checkpoint_id === checkpointId);
      const target = all[at];
      if (target === undefined) return failure("NOT_FOUND", `no checkpoint ${checkpointId}`);
      const after =
        (await afterTree(run, checkpointId)) ?? all[at - 1]?.tree ?? (await snapshotTree(this.shadow));
      const diff = await treeDiff(run, target.tree, after, { renames: false });
      if (!diff.ok) return failure("INTERNAL", diff.message);
      return { ok: true, checkpoint: publicCheckpoint(target), files: diff.files, truncated: diff.truncated };
    });
  }

  /** Records `tree` as the newest checkpoint, then applies retention. */
  private async record(tree: string, label: string): Promise<Checkpoint> {
    const { run } = this.shadow;
    const before = await listCheckpoints(run);
    const previous = before[0];
    const filesChanged = previous === undefined ? 0 : (await changedPaths(run, previous.tree, tree)).length;
    const made = await recordCheckpoint(run, tree, label, filesChanged, previous);
    await setKnownTree(run, tree);
    await enforceRetention(run, [made, ...before], this.retention);
    return publicCheckpoint(made);
  }

  private serially<T extends { ok: boolean }>(operation: () => Promise<T>): Promise<T | Failed> {
    const next = this.queue.then(async () => {
      try {
        return await operation();
      } catch (err) {
        return failure("INTERNAL", describeError(err));
      }
    });
    this.queue = next;
    return next;
  }
}

type Failed = ReturnType<typeof failure>;

function publicCheckpoint(c: LoggedCheckpoint): Checkpoint {
  return {
    checkpoint_id: c.checkpoint_id,
    label: c.label,
    created_at: c.created_at,
    files_changed: c.files_changed,
  };
}
