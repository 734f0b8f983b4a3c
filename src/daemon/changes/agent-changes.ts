/**
 * An agent's changes (`agent.changes`): its working tree now against its baseline. An agent in a
 * workspace is compared with the workspace's base (its branch's merge base with the integration
 * target), so the view is the workspace's review; once the workspace is retired, the branch tip
 * stands for the worktree that is gone.
 */

import type { GitRunner } from "../../git/git.ts";
import { treeDiff } from "../../git/tree-diff.ts";
import type { AgentChangesBaseline, AgentChangesResult } from "../../types/agent-changes.ts";
import { type Failure, failure } from "../../wire/errors.ts";
import type { AgentManifest } from "../registry/manifest.ts";
import type { WorkspaceRecord } from "../workspaces/workspace-record.ts";
import { anchorBaseline } from "./baseline.ts";
import type { ChangesHost } from "./changes-host.ts";

export interface ChangesContext {
  /** Where the agent's git runs: this machine, or its placement. */
  host: ChangesHost;
  log(line: string): void;
}

type Answer = { ok: true; value: AgentChangesResult } | Failure;

export async function agentChanges(
  manifest: AgentManifest,
  workspace: WorkspaceRecord | undefined,
  context: ChangesContext,
): Promise<Answer> {
  const agentId = manifest.agent_id;
  if (workspace !== undefined) return workspaceChanges(agentId, workspace, context);
  const baseline = manifest.baseline;
  if (baseline === undefined) {
    return none(
      agentId,
      "not_recorded",
      "No baseline was recorded when this agent started (it has not started since, or the snapshot failed: daemon.log says why).",
    );
  }
  if (baseline.kind === "not_git") {
    return none(
      agentId,
      "not_git",
      "The agent's working directory was not in a git repository when it started, so there is nothing to compare its changes with.",
    );
  }
  const run = await context.host.repositoryRunner(manifest.cwd);
  if (run === undefined || !(await run(["cat-file", "-e", `${baseline.commit}^{commit}`])).ok) {
    return none(
      agentId,
      "gone",
      "The git repository the agent started in is gone or was replaced; its baseline is no longer there.",
    );
  }
  // A daemon killed between saving the manifest and writing the ref left the commit unanchored.
  await anchorBaseline(run, agentId, baseline.commit, context.log);
  const now = await context.host.snapshot(manifest.cwd);
  if (!now.ok) return snapshotFailed(now);
  return diffed(
    agentId,
    { kind: "agent_start", commit: baseline.commit, recorded_at: baseline.recorded_at },
    run,
    baseline.commit,
    now.tree,
    now.truncated,
  );
}

async function workspaceChanges(
  agentId: string,
  workspace: WorkspaceRecord,
  context: ChangesContext,
): Promise<Answer> {
  const retired = workspace.tombstone !== undefined;
  const at = retired ? workspace.repository_cwd : workspace.worktree_path;
  const run = await context.host.repositoryRunner(at);
  if (run === undefined)
    return failure("CONFLICT", `agent.changes: the workspace's repository cannot be read`);
  let tip: string;
  let truncated = false;
  if (retired) {
    const branch = await run(["rev-parse", "--verify", "--quiet", `refs/heads/${workspace.branch}^{commit}`]);
    if (!branch.ok) {
      return none(
        agentId,
        "branch_deleted",
        `The workspace was retired and its branch ${workspace.branch} deleted (its work was merged into ${workspace.integration_target}).`,
      );
    }
    tip = branch.stdout.trim();
  } else {
    const now = await context.host.snapshot(at);
    if (!now.ok) return snapshotFailed(now);
    tip = now.tree;
    truncated = now.truncated;
  }
  const head = retired ? tip : `refs/heads/${workspace.branch}`;
  const mergeBase = await run(["merge-base", workspace.integration_target, head]);
  const base = mergeBase.ok ? mergeBase.stdout.trim() : workspace.base_commit;
  return diffed(
    agentId,
    { kind: "workspace", workspace_id: workspace.workspace_id, branch: workspace.branch, base, retired },
    run,
    base,
    tip,
    truncated,
  );
}

async function diffed(
  agentId: string,
  baseline: AgentChangesBaseline,
  run: GitRunner,
  from: string,
  to: string,
  truncated: boolean,
): Promise<Answer> {
  const diff = await treeDiff(run, from, to);
  if (!diff.ok) return failure("CONFLICT", `agent.changes: ${diff.message}`);
  return {
    ok: true,
    value: { agent_id: agentId, baseline, files: diff.files, truncated: truncated || diff.truncated },
  };
}

function none(
  agentId: string,
  reason: Extract<AgentChangesBaseline, { kind: "none" }>["reason"],
  message: string,
): Answer {
  return {
    ok: true,
    value: { agent_id: agentId, baseline: { kind: "none", reason, message }, files: [], truncated: false },
  };
}

function snapshotFailed(snapshot: { notGit: true } | { notGit: false; message: string }): Failure {
  return failure(
    "CONFLICT",
    snapshot.notGit
      ? "agent.changes: the agent's working directory is no longer in a git repository"
      : `agent.changes: ${snapshot.message}`,
  );
}
