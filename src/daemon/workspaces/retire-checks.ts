/**
 * Whether a workspace may be retired now, and with which disposition (docs/protocol.md §10.3): a
 * typed refusal for live, busy, dirty, missing and unsafe ones; for a branch deletion, proof
 * that its work is in the integration target, or `confirmation_required`.
 */
import type { BranchDisposition, WorkspaceRetireConflict } from "../../types/workspace-projection.ts";
import { mergeState } from "./merge-check.ts";
import { dirtyState, headRef, worktreeFingerprint } from "./repository.ts";
import type { WorkspaceHost } from "./workspace-host.ts";
import type { WorkspaceRecord } from "./workspace-record.ts";

export interface AgentLiveness {
  /** The agent is doing work (a turn, a dialog, compaction). */
  active(agentId: string): boolean;
  /** The agent's runtime process is up (its cwd is the worktree). */
  running(agentId: string): boolean;
}

export type RetirePlan =
  | { ok: true; deleteBranch: boolean }
  | { ok: false; refusal: WorkspaceRetireConflict };

export async function planRetire(
  host: WorkspaceHost,
  record: WorkspaceRecord,
  disposition: BranchDisposition,
  agents: AgentLiveness,
  worktreesDir: string,
): Promise<RetirePlan> {
  const refuse = (
    kind: Exclude<WorkspaceRetireConflict["kind"], "confirmation_required">,
    reason: string,
  ): RetirePlan => ({ ok: false, refusal: { kind, workspace_id: record.workspace_id, reason } });
  const bound = [...new Set(record.bindings.map((b) => b.agent_id))];
  const busy = bound.find((id) => agents.active(id));
  if (busy !== undefined)
    return refuse("busy", `agent ${busy} is working in this workspace; abort or wait for it`);
  const live = bound.find((id) => agents.running(id));
  if (live !== undefined)
    return refuse("live", `agent ${live} still runs in this workspace; terminate it first`);

  const present = (await worktreeFingerprint(host, record.worktree_path)) === record.fingerprints.worktree;
  if (!present) {
    // Nothing uncommitted can be lost any more; the branch (the commits) is kept.
    if (disposition === "keep") return { ok: true, deleteBranch: false };
    return refuse(
      "missing_authority",
      "the worktree was removed or replaced outside the daemon; retire with branch_disposition keep to drop the record and keep the branch",
    );
  }
  if (!(await host.below(record.worktree_path, worktreesDir))) {
    return refuse("unsafe", "the worktree is no longer where the daemon created it");
  }
  // Full ref names: a branch named like a tag (`v1` and a tag `v1`) is `heads/v1` in short form.
  if ((await headRef(host, record.worktree_path)) !== `refs/heads/${record.branch}`) {
    return refuse("unsafe", `the worktree no longer has ${record.branch} checked out`);
  }
  const dirty = await dirtyState(host, record.worktree_path);
  if (!dirty.ok) return refuse("unsafe", `git cannot read the worktree: ${dirty.message}`);
  if (dirty.value.length > 0) {
    return refuse(
      "dirty",
      `${dirty.value.length} uncommitted or untracked change(s); commit or discard them first`,
    );
  }

  if (disposition === "keep") return { ok: true, deleteBranch: false };
  if (disposition === "delete_confirmed") return { ok: true, deleteBranch: true };
  const merged = await mergeState(record.repository_cwd, record.branch, record.integration_target, host.git);
  if (merged.merged) return { ok: true, deleteBranch: true };
  return {
    ok: false,
    refusal: {
      kind: "confirmation_required",
      workspace_id: record.workspace_id,
      reason: merged.reason,
      confirmation_disposition: "delete_confirmed",
    },
  };
}
