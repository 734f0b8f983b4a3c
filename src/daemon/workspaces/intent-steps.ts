/**
 * The git side of a workspace intent (workspace-intents.ts): undoing a create and carrying out
 * a retire. Every step may run again after a crash part-way through, so each one first looks
 * at what is there (a worktree already gone, a branch already deleted or moved on).
 */
import { join } from "node:path";
import { gitComplaint } from "../../git/git.ts";
import { worktreeFingerprint } from "./repository.ts";
import type { WorkspaceHost } from "./workspace-host.ts";
import type { CreateIntent } from "./workspace-intents.ts";
import type { WorkspaceRecord } from "./workspace-record.ts";

/**
 * Undoes a create that did not reach its saved record: the worktree goes (nothing of anyone's
 * can be in it: no agent was started there yet), and the branch too while it still points at
 * its base commit (a branch someone committed to is kept, and said so).
 */
export async function undoCreate(
  host: WorkspaceHost,
  intent: CreateIntent,
  worktreesDir: string,
  log: (line: string) => void,
): Promise<void> {
  const root = intent.repository_cwd;
  const path = join(worktreesDir, intent.workspace_id);
  if ((await host.realpath(path)) !== undefined) {
    // `worktree add` locks the worktree while it makes it: a kill leaves it locked (-f twice).
    const removed = await host.git(root, ["worktree", "remove", "-f", "-f", path]);
    // A checkout cut short may not be a worktree yet; the folder is ours either way.
    if (!removed.ok) await host.removeBelow(path, worktreesDir);
  }
  await host.git(root, ["worktree", "prune"]);
  const deleted = await deleteBranchAt(host, root, intent.branch, intent.base_commit);
  if (deleted === "moved") {
    log(`workspace ${intent.workspace_id}: branch ${intent.branch} has new commits; kept`);
  }
}

export type RetireSteps = { ok: true; branchDeleted: boolean } | { ok: false; message: string };

/**
 * Removes the worktree (when it is still the one the record names) and deletes the branch when
 * asked, only at the tip the checks approved. A worktree git will not remove is an error: the
 * caller keeps the workspace active.
 */
export async function retireSteps(
  host: WorkspaceHost,
  record: WorkspaceRecord,
  deleteBranch: boolean,
  branchCommit: string,
  log: (line: string) => void,
): Promise<RetireSteps> {
  const root = record.repository_cwd;
  const present = (await worktreeFingerprint(host, record.worktree_path)) === record.fingerprints.worktree;
  const removed = present
    ? await host.git(root, ["worktree", "remove", record.worktree_path])
    : await host.git(root, ["worktree", "prune"]);
  if (!removed.ok)
    return { ok: false, message: `git could not remove the worktree: ${gitComplaint(removed)}` };
  if (!deleteBranch) return { ok: true, branchDeleted: false };
  const deleted = await deleteBranchAt(host, root, record.branch, branchCommit);
  if (deleted === "moved" || deleted === "failed") {
    log(
      `workspace ${record.workspace_id}: branch ${record.branch} kept (${deleted === "moved" ? "it moved since the checks" : "git refused"})`,
    );
  }
  // Absent now but there at the checks: deleted by this retire before a crash cut it short.
  return { ok: true, branchDeleted: deleted === "deleted" || (deleted === "absent" && branchCommit !== "") };
}

/** The branch tip now: a full commit id, or undefined when there is no such branch. */
export async function branchTip(
  host: WorkspaceHost,
  repo: string,
  branch: string,
): Promise<string | undefined> {
  const tip = await host.git(repo, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}^{commit}`]);
  return tip.ok ? tip.stdout.trim() : undefined;
}

/** Deletes `refs/heads/<branch>` only while it points at `commit` (git checks that atomically). */
async function deleteBranchAt(
  host: WorkspaceHost,
  repo: string,
  branch: string,
  commit: string,
): Promise<"deleted" | "absent" | "moved" | "failed"> {
  const tip = await branchTip(host, repo, branch);
  if (tip === undefined) return "absent";
  if (tip !== commit) return "moved";
  const deleted = await host.git(repo, ["update-ref", "-d", `refs/heads/${branch}`, commit]);
  return deleted.ok ? "deleted" : "failed";
}
