/**
 * The daemon's workspaces (docs/architecture.md §7.3): one git worktree per workspace, on its own
 * branch, under `$SHARD_HOME/worktrees/` (durable: never a temp dir, never reaped), each bound to
 * the agents launched in it. Operations run one at a time, so a retire never races a create.
 * A workspace on a placement has its repository, worktree and git there (workspace-host.ts):
 * `$SHARD_HOME/worktrees/` of that side, the same intents recorded here first.
 */
import { isAbsolute, join } from "node:path";
import { gitComplaint } from "../../git/git.ts";
import { LOCAL_PLACEMENT } from "../../placements/placement-config.ts";
import type { Found } from "../../placements/placement-git.ts";
import { describeError } from "../../support/describe-error.ts";
import { newId } from "../../support/ids.ts";
import { storageFault } from "../../support/storage-fault.ts";
import type {
  WorkspaceAttachCommand,
  WorkspaceAttachedEvent,
  WorkspaceConflictEvent,
  WorkspaceCreateCommand,
  WorkspaceCreatedEvent,
  WorkspaceDiffResult,
  WorkspaceListCommand,
  WorkspaceRetireCommand,
  WorkspaceRetiredEvent,
} from "../../types/workspace.ts";
import type { WorkspaceDetail, WorkspaceSummary } from "../../types/workspace-projection.ts";
import { type Failure, failure } from "../../wire/errors.ts";
import { branchDiff } from "./branch-diff.ts";
import { branchTip, retireSteps, undoCreate } from "./intent-steps.ts";
import {
  branchExists,
  currentBranch,
  openRepository,
  resolveCommit,
  validBranchName,
  worktreeFingerprint,
} from "./repository.ts";
import { type AgentLiveness, planRetire } from "./retire-checks.ts";
import { removeCheckpointsOf, workspaceSessions } from "./workspace-checkpoints.ts";
import type { WorkspaceHost } from "./workspace-host.ts";
import {
  type CreateIntent,
  type RetireIntent,
  type WorkspaceIntent,
  WorkspaceIntents,
} from "./workspace-intents.ts";
import { detailOf, summaryOf, WORKSPACE_RECORD_VERSION, type WorkspaceRecord } from "./workspace-record.ts";
import { WorkspaceStore } from "./workspace-store.ts";

export type WorkspaceEvent =
  | Omit<WorkspaceCreatedEvent, "seq">
  | Omit<WorkspaceAttachedEvent, "seq">
  | Omit<WorkspaceRetiredEvent, "seq">
  | Omit<WorkspaceConflictEvent, "seq">;

export interface LaunchOptions {
  name?: string;
  model?: string;
  provider?: string;
  mode?: string;
  /** The workspace's placement; absent is this machine. */
  placement?: string;
}

export interface WorkspaceDeps {
  home: string;
  /** Where git runs for a workspace on `placement` (undefined: this machine), or why nowhere. */
  hostOf(placement: string | undefined): Found<WorkspaceHost>;
  agents: AgentLiveness;
  /** Starts a fresh agent (and session) in `cwd`. */
  launch(
    cwd: string,
    options: LaunchOptions,
  ): Promise<{ ok: true; agent_id: string; session_id: string } | Failure>;
  broadcast(event: WorkspaceEvent): void;
  log(line: string): void;
  now?: () => number;
}

export type Result<T> = { ok: true; value: T } | Failure;

export interface Launched {
  agent_id: string;
  session_id: string;
  workspace: WorkspaceDetail;
}

export class Workspaces {
  private readonly store: WorkspaceStore;
  private readonly intents: WorkspaceIntents;
  private readonly records = new Map<string, WorkspaceRecord>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly deps: WorkspaceDeps) {
    this.store = new WorkspaceStore(deps.home);
    this.intents = new WorkspaceIntents(deps.home);
    for (const record of this.store.load(deps.log)) this.records.set(record.workspace_id, record);
  }

  /** Loads the records, then finishes or undoes what a daemon killed mid-operation left. */
  static async open(deps: WorkspaceDeps): Promise<Workspaces> {
    const workspaces = new Workspaces(deps);
    await workspaces.recover();
    return workspaces;
  }

  list(command: Omit<WorkspaceListCommand, "id" | "type">): WorkspaceSummary[] {
    return [...this.records.values()]
      .filter((r) => command.include_retired === true || r.tombstone === undefined)
      .filter(
        (r) =>
          command.cwd === undefined || r.repository_cwd === command.cwd || r.worktree_path === command.cwd,
      )
      .sort((a, b) => a.created_at - b.created_at)
      .map(summaryOf);
  }

  status(workspaceId: string): Promise<Result<WorkspaceDetail>> {
    return this.serially(async () => {
      const record = this.records.get(workspaceId);
      if (record === undefined) return notFound(workspaceId);
      if (record.tombstone !== undefined) return { ok: true, value: detailOf(record, undefined) };
      const at = await this.reach(record.placement, "workspace.status");
      if (!at.ok) return at;
      return { ok: true, value: detailOf(record, await this.conflictOf(at.value.host, record)) };
    });
  }

  /** The branch's committed work against its merge base with the integration target. */
  diff(workspaceId: string): Promise<Result<WorkspaceDiffResult>> {
    return this.serially(async () => {
      const record = this.records.get(workspaceId);
      if (record === undefined) return notFound(workspaceId);
      const at = await this.reach(record.placement, "workspace.diff");
      if (!at.ok) return at;
      const diff = await branchDiff(
        at.value.host,
        record.repository_cwd,
        record.branch,
        record.integration_target,
      );
      if (!diff.ok) return failure("CONFLICT", `workspace.diff: ${diff.message}`);
      return {
        ok: true,
        value: {
          workspace_id: workspaceId,
          branch: record.branch,
          integration_target: record.integration_target,
          merge_base: diff.mergeBase,
          files: diff.files,
          truncated: diff.truncated,
        },
      };
    });
  }

  create(command: WorkspaceCreateCommand): Promise<Result<Launched>> {
    return this.serially(async () => {
      const placement = command.placement === LOCAL_PLACEMENT ? undefined : command.placement;
      if (placement !== undefined && !isAbsolute(command.cwd)) {
        return invalid(
          `workspace.create: field "cwd": on placement "${placement}" it must be an absolute path there`,
        );
      }
      const at = await this.reach(placement, "workspace.create");
      if (!at.ok) return at;
      const { host, worktreesDir } = at.value;
      const repo = await openRepository(host, command.cwd);
      if (!repo.ok) return invalid(`workspace.create: field "cwd": ${repo.message}`);
      const root = repo.value.root;
      const checkedOut = await currentBranch(host, root);
      const baseRef = command.base_ref ?? checkedOut ?? "HEAD";
      const target = command.integration_target ?? (baseRef === "HEAD" ? checkedOut : baseRef);
      if (target === undefined) {
        return invalid(
          'workspace.create: field "integration_target": HEAD is detached; name the branch work merges into',
        );
      }
      const workspaceId = newId("ws");
      const branch =
        command.branch ?? `shard/${slug(command.label) || workspaceId.slice(3, 11).toLowerCase()}`;
      // Independent checks, run together: each is a git process.
      const [base, targetCommit, branchOk, branchTaken] = await Promise.all([
        resolveCommit(host, root, baseRef),
        resolveCommit(host, root, target),
        validBranchName(host, root, branch),
        branchExists(host, root, branch),
      ]);
      if (!base.ok) return invalid(`workspace.create: field "base_ref": ${base.message}`);
      if (!targetCommit.ok)
        return invalid(`workspace.create: field "integration_target": ${targetCommit.message}`);
      if (!branchOk) {
        return invalid(`workspace.create: field "branch": "${branch}" is not a valid branch name`);
      }
      if (branchTaken) {
        return failure(
          "CONFLICT",
          `workspace.create: field "branch": ${branch} already exists; name another branch`,
        );
      }
      const path = join(worktreesDir, workspaceId);
      const intent: CreateIntent = {
        version: 1,
        kind: "create",
        workspace_id: workspaceId,
        repository_cwd: root,
        ...(placement !== undefined ? { placement } : {}),
        branch,
        base_commit: base.value,
        started_at: this.now(),
      };
      // Recorded before git makes anything, so a crash from here on is undone at the next start.
      const noted = this.noteIntent(intent);
      if (!noted.ok) return noted;
      await host.makeWorktreesDir(worktreesDir);
      const added = await host.git(root, ["worktree", "add", "--quiet", "-b", branch, path, base.value]);
      const worktreeFp = added.ok ? await worktreeFingerprint(host, path) : undefined;
      if (worktreeFp === undefined) {
        await this.undoCreate(host, worktreesDir, intent);
        return failure(
          "INTERNAL_ERROR",
          added.ok
            ? "the new worktree cannot be read back"
            : `git worktree add failed: ${gitComplaint(added)}`,
        );
      }
      const now = this.now();
      const record: WorkspaceRecord = {
        version: WORKSPACE_RECORD_VERSION,
        workspace_id: workspaceId,
        label: command.label ?? branch,
        repository_cwd: root,
        worktree_path: path,
        ...(placement !== undefined ? { placement } : {}),
        branch,
        base_ref: baseRef,
        base_commit: base.value,
        integration_target: target,
        fingerprints: { repository: repo.value.fingerprint, worktree: worktreeFp },
        created_at: now,
        updated_at: now,
        bindings: [],
      };
      const saved = this.save(record);
      if (!saved.ok) {
        await this.undoCreate(host, worktreesDir, intent);
        return saved;
      }
      this.intents.remove(workspaceId);
      this.deps.broadcast({ type: "workspace_created", workspace: summaryOf(record) });
      return this.launchIn(record, command);
    });
  }

  attach(command: WorkspaceAttachCommand): Promise<Result<Launched>> {
    return this.serially(async () => {
      const record = this.records.get(command.workspace_id);
      if (record === undefined) return notFound(command.workspace_id);
      if (record.tombstone !== undefined) {
        return invalid(`workspace.attach: workspace ${record.workspace_id} is retired`);
      }
      const at = await this.reach(record.placement, "workspace.attach");
      if (!at.ok) return at;
      const conflict = await this.conflictOf(at.value.host, record);
      if (conflict !== undefined) return failure("CONFLICT", `workspace.attach: ${conflict}`);
      return this.launchIn(record, command);
    });
  }

  retire(
    command: WorkspaceRetireCommand,
  ): Promise<Result<{ workspace: WorkspaceDetail; branch_deleted: boolean }>> {
    return this.serially(async () => {
      const record = this.records.get(command.workspace_id);
      if (record === undefined) return notFound(command.workspace_id);
      if (record.tombstone !== undefined) {
        return invalid(`workspace.retire: workspace ${record.workspace_id} is already retired`);
      }
      const disposition = command.branch_disposition ?? "delete_if_merged";
      // An unreachable placement is no proof the worktree is gone: nothing is decided.
      const at = await this.reach(record.placement, "workspace.retire");
      if (!at.ok) return at;
      const { host, worktreesDir } = at.value;
      // The tip the checks see: only this commit is deleted, a branch that moves since is kept.
      const tip = await branchTip(host, record.repository_cwd, record.branch);
      const plan = await planRetire(host, record, disposition, this.deps.agents, worktreesDir);
      if (!plan.ok) {
        if (plan.refusal.kind === "missing_authority") {
          this.deps.broadcast({
            type: "workspace_conflict",
            workspace: summaryOf(record),
            reason: plan.refusal.reason,
          });
        }
        return failure("CONFLICT", `workspace.retire: ${plan.refusal.reason}`, plan.refusal);
      }
      const intent: RetireIntent = {
        version: 1,
        kind: "retire",
        workspace_id: record.workspace_id,
        branch_disposition: disposition,
        delete_branch: plan.deleteBranch,
        branch_commit: tip ?? "",
        started_at: this.now(),
      };
      // Recorded before git removes anything: a crash from here on is finished at the next start.
      const noted = this.noteIntent(intent);
      if (!noted.ok) return noted;
      const retired = await this.finishRetire(host, record, intent);
      if (!retired.ok) return retired;
      return {
        ok: true,
        value: {
          workspace: detailOf(retired.value, undefined),
          branch_deleted: retired.value.tombstone?.branch_deleted === true,
        },
      };
    });
  }

  /** Carries out a retire intent: worktree, branch, checkpoints, tombstone, then the intent goes. */
  private async finishRetire(
    host: WorkspaceHost,
    record: WorkspaceRecord,
    intent: RetireIntent,
  ): Promise<Result<WorkspaceRecord>> {
    // Found while the worktree still exists (its real path); a recovery finds them by the recorded one.
    // On a placement the sessions and their checkpoints are that side's: none of this machine's.
    const sessions =
      record.placement === undefined ? workspaceSessions(this.deps.home, record) : new Set<string>();
    const steps = await retireSteps(host, record, intent.delete_branch, intent.branch_commit, this.deps.log);
    if (!steps.ok) {
      // Nothing was removed: the workspace stays active, as it was.
      this.intents.remove(record.workspace_id);
      return failure("INTERNAL_ERROR", steps.message);
    }
    // The worktree is gone, so its checkpoints can never be restored: they go before the
    // tombstone, so a crash in between finishes this from the intent.
    try {
      removeCheckpointsOf(this.deps.home, sessions);
    } catch (err) {
      this.deps.log(`workspace ${record.workspace_id}: checkpoints not removed: ${describeError(err)}`);
      return failure(
        "INTERNAL_ERROR",
        `the worktree was removed but its checkpoints could not be: ${describeError(err)}; the retire finishes at the next daemon start`,
      );
    }
    const now = this.now();
    const retired: WorkspaceRecord = {
      ...record,
      updated_at: now,
      tombstone: {
        retired_at: now,
        branch_disposition: intent.branch_disposition,
        branch_deleted: steps.branchDeleted,
      },
    };
    const saved = this.save(retired);
    if (!saved.ok) return saved;
    this.intents.remove(record.workspace_id);
    this.deps.broadcast({ type: "workspace_retired", workspace: summaryOf(retired) });
    return saved;
  }

  private async undoCreate(host: WorkspaceHost, worktreesDir: string, intent: CreateIntent): Promise<void> {
    await undoCreate(host, intent, worktreesDir, this.deps.log);
    this.intents.remove(intent.workspace_id);
  }

  /**
   * The host of a workspace on `placement`, and its worktrees folder: asking for the folder
   * first shows the placement answers, so a link that is down is never read as a worktree gone.
   */
  private async reach(
    placement: string | undefined,
    command: string,
  ): Promise<Result<{ host: WorkspaceHost; worktreesDir: string }>> {
    const host = this.deps.hostOf(placement);
    if (!host.ok) return invalid(`${command}: field "placement": ${host.message}`);
    const dir = await host.value.worktreesDir();
    if (!dir.ok) return failure("CONFLICT", `${command}: ${dir.message}`);
    return { ok: true, value: { host: host.value, worktreesDir: dir.value } };
  }

  /** Finishes each retire and undoes each create a killed daemon left half done. */
  private async recover(): Promise<void> {
    for (const intent of this.intents.load(this.deps.log)) {
      try {
        await this.recoverOne(intent);
      } catch (err) {
        // Left in place for the next start; the other workspaces still load.
        this.deps.log(
          `workspace ${intent.workspace_id}: cannot recover its ${intent.kind}: ${describeError(err)}`,
        );
      }
    }
  }

  private async recoverOne(intent: WorkspaceIntent): Promise<void> {
    const record = this.records.get(intent.workspace_id);
    if (intent.kind === "create") {
      // Saved means created: the workspace is listed and can be attached.
      if (record !== undefined) this.intents.remove(intent.workspace_id);
      else {
        const at = await this.reach(intent.placement, "recovery");
        if (!at.ok) throw new Error(at.error.message);
        await this.undoCreate(at.value.host, at.value.worktreesDir, intent);
        this.deps.log(`workspace ${intent.workspace_id}: undid a create cut short (branch ${intent.branch})`);
      }
    } else if (record === undefined || record.tombstone !== undefined) {
      this.intents.remove(intent.workspace_id);
    } else {
      const at = await this.reach(record.placement, "recovery");
      if (!at.ok) throw new Error(at.error.message);
      const retired = await this.finishRetire(at.value.host, record, intent);
      this.deps.log(
        `workspace ${intent.workspace_id}: ${retired.ok ? "finished a retire cut short" : `could not finish a retire cut short (${retired.error.message}); still active`}`,
      );
    }
  }

  private noteIntent(intent: WorkspaceIntent): Result<WorkspaceIntent> {
    try {
      this.intents.save(intent);
    } catch (err) {
      const cause = storageFault(err) ?? describeError(err);
      return failure(
        "INTERNAL_ERROR",
        `could not record the workspace operation: ${cause}; nothing was changed`,
      );
    }
    return { ok: true, value: intent };
  }

  private async launchIn(record: WorkspaceRecord, options: LaunchOptions): Promise<Result<Launched>> {
    const launched = await this.deps.launch(record.worktree_path, {
      ...(options.name !== undefined ? { name: options.name } : {}),
      ...(options.model !== undefined ? { model: options.model } : {}),
      ...(options.provider !== undefined ? { provider: options.provider } : {}),
      ...(options.mode !== undefined ? { mode: options.mode } : {}),
      ...(record.placement !== undefined ? { placement: record.placement } : {}),
    });
    if (!launched.ok) {
      return { ok: false, error: { ...launched.error, data: { workspace_id: record.workspace_id } } };
    }
    const bound: WorkspaceRecord = {
      ...record,
      updated_at: this.now(),
      bindings: [
        ...record.bindings,
        { agent_id: launched.agent_id, session_id: launched.session_id, bound_at: this.now() },
      ],
    };
    const saved = this.save(bound);
    if (!saved.ok) return saved;
    this.deps.broadcast({
      type: "workspace_attached",
      workspace: summaryOf(bound),
      agent_id: launched.agent_id,
      session_id: launched.session_id,
    });
    return {
      ok: true,
      value: {
        agent_id: launched.agent_id,
        session_id: launched.session_id,
        workspace: detailOf(bound, undefined),
      },
    };
  }

  /** Why the worktree on disk no longer matches its record (sanitized: no paths), if it does not. */
  private async conflictOf(host: WorkspaceHost, record: WorkspaceRecord): Promise<string | undefined> {
    if (record.tombstone !== undefined) return undefined;
    const fp = await worktreeFingerprint(host, record.worktree_path);
    if (fp === undefined) return "the worktree was removed outside the daemon";
    if (fp !== record.fingerprints.worktree) return "the worktree was replaced outside the daemon";
    return undefined;
  }

  private save(record: WorkspaceRecord): Result<WorkspaceRecord> {
    try {
      this.store.save(record);
    } catch (err) {
      return failure("INTERNAL_ERROR", `could not write the workspace record: ${describeError(err)}`);
    }
    this.records.set(record.workspace_id, record);
    return { ok: true, value: record };
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => {});
    return next;
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }
}

function notFound(workspaceId: string): Failure {
  return failure("NOT_FOUND", `no workspace ${workspaceId}; workspace.list shows them`);
}

function invalid(message: string): Failure {
  return failure("INVALID_REQUEST", message);
}

function slug(label: string | undefined): string {
  return (label ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
}
