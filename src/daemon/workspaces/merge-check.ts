/**
 * Whether a workspace branch's work is already in its integration target (docs/workspaces.md):
 *   1. reachable: the branch tip is an ancestor of the target (a merge or fast-forward);
 *   2. patch-equivalent: every commit of the branch has a patch-id twin in the target
 *      (`git cherry`: a rebase merge, or cherry-picks);
 *   3. tree-equivalent: merging the branch into the target would not change the target's tree
 *      (`git merge-tree --write-tree`: a squash merge).
 * Anything else is unmerged, and deleting the branch would lose work.
 */
import { type GitOptions, type GitResult, git } from "../../git/git.ts";

/** Runs git in a folder: this machine's (the default) or a placement's (workspace-host.ts). */
export type GitAt = (cwd: string, args: string[], options?: GitOptions) => Promise<GitResult>;

export type MergeState =
  | { merged: true; how: "reachable" | "patch_equivalent" | "tree_equivalent" }
  | { merged: false; reason: string };

export async function mergeState(
  repo: string,
  branch: string,
  target: string,
  at: GitAt = git,
): Promise<MergeState> {
  const branchRef = `refs/heads/${branch}`;
  const ancestor = await at(repo, ["merge-base", "--is-ancestor", branchRef, target]);
  if (ancestor.ok) return { merged: true, how: "reachable" };
  if (ancestor.code !== 1) return { merged: false, reason: `cannot compare ${branch} with ${target}` };

  const cherry = await at(repo, ["cherry", target, branchRef]);
  const lines = cherry.stdout.split("\n").filter((l) => l.trim() !== "");
  if (cherry.ok && lines.length > 0 && lines.every((l) => l.startsWith("-"))) {
    return { merged: true, how: "patch_equivalent" };
  }

  const merged = await at(repo, ["merge-tree", "--write-tree", target, branchRef]);
  const targetTree = await at(repo, ["rev-parse", `${target}^{tree}`]);
  const mergedTree = merged.stdout.split("\n")[0]?.trim();
  if (merged.ok && targetTree.ok && mergedTree !== undefined && mergedTree === targetTree.stdout.trim()) {
    return { merged: true, how: "tree_equivalent" };
  }
  const unmerged = lines.filter((l) => l.startsWith("+")).length;
  return {
    merged: false,
    reason: `${branch} has ${unmerged || "some"} commit(s) whose changes are not in ${target}`,
  };
}
