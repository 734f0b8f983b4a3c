/**
 * Intent records: what a workspace operation is about to do to git, written before it does it,
 * so a daemon killed in between can finish or undo it at the next start
 * (`$SHARD_HOME/workspaces/intents/<workspace_id>.json`, removed once the operation is over).
 *   - create: `git worktree add` is next; until the workspace record is saved the operation
 *     is undone (the worktree removed, the branch deleted while it still has no commits).
 *   - retire: the checks passed and the decision is made; `git worktree remove`, the branch
 *     deletion and the tombstone are finished.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { atomicWriteFileSync } from "../../support/atomic-write.ts";
import { describeError } from "../../support/describe-error.ts";
import { BranchDispositionSchema } from "../../types/workspace-projection.ts";

/** Workspace ids are ours (`ws_…`): a path segment that cannot climb out of its folder. */
export const WORKSPACE_ID_PATTERN = "^ws_[A-Za-z0-9_-]+$";

const CreateIntentSchema = Type.Object({
  version: Type.Literal(1),
  kind: Type.Literal("create"),
  workspace_id: Type.String({ pattern: WORKSPACE_ID_PATTERN }),
  repository_cwd: Type.String({ minLength: 1 }),
  /** The placement git runs on to undo it (workspace-host.ts); absent is this machine. */
  placement: Type.Optional(Type.String({ minLength: 1 })),
  branch: Type.String({ minLength: 1 }),
  /** The commit the branch starts at: it is deleted on undo only while it still points here. */
  base_commit: Type.String({ minLength: 1 }),
  started_at: Type.Number(),
});

const RetireIntentSchema = Type.Object({
  version: Type.Literal(1),
  kind: Type.Literal("retire"),
  workspace_id: Type.String({ pattern: WORKSPACE_ID_PATTERN }),
  branch_disposition: BranchDispositionSchema,
  delete_branch: Type.Boolean(),
  /** The branch tip the checks approved: a branch that moved since is kept. */
  branch_commit: Type.String(),
  started_at: Type.Number(),
});

export const WorkspaceIntentSchema = Type.Union([CreateIntentSchema, RetireIntentSchema]);
export type CreateIntent = Static<typeof CreateIntentSchema>;
export type RetireIntent = Static<typeof RetireIntentSchema>;
export type WorkspaceIntent = Static<typeof WorkspaceIntentSchema>;

export class WorkspaceIntents {
  readonly dir: string;

  constructor(home: string) {
    this.dir = intentsDir(home);
  }

  save(intent: WorkspaceIntent): void {
    atomicWriteFileSync(this.pathOf(intent.workspace_id), `${JSON.stringify(intent, null, 2)}\n`);
  }

  remove(workspaceId: string): void {
    rmSync(this.pathOf(workspaceId), { force: true });
  }

  /** Every readable intent; one that is not is reported and left in place, never guessed at. */
  load(log: (line: string) => void): WorkspaceIntent[] {
    const intents: WorkspaceIntent[] = [];
    for (const name of intentFiles(this.dir)) {
      try {
        const value: unknown = JSON.parse(readFileSync(join(this.dir, name), "utf8"));
        if (Value.Check(WorkspaceIntentSchema, value) && `${value.workspace_id}.json` === name) {
          intents.push(value);
        } else log(`workspace intent ${name} does not match its schema; left untouched and skipped`);
      } catch (err) {
        log(`workspace intent ${name} cannot be read (${describeError(err)}); skipped`);
      }
    }
    return intents;
  }

  private pathOf(workspaceId: string): string {
    return join(this.dir, `${workspaceId}.json`);
  }
}

export function intentsDir(home: string): string {
  return join(home, "workspaces", "intents");
}

/** The intent files in `dir` (none when it does not exist): cheap enough to ask at start. */
export function intentFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
}
