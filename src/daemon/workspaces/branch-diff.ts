/**
 * A workspace branch's committed work against its base, for review before retiring: the diff
 * from the branch's merge base with the integration target to the branch tip, parsed into
 * files and hunks (bounded: tree-diff.ts).
 */

import { treeDiff } from "../../git/tree-diff.ts";
import type { WorkspaceDiffFile } from "../../types/workspace.ts";
import type { WorkspaceHost } from "./workspace-host.ts";

export type BranchDiff =
  | { ok: true; mergeBase: string; files: WorkspaceDiffFile[]; truncated: boolean }
  | { ok: false; message: string };

export async function branchDiff(
  host: WorkspaceHost,
  repo: string,
  branch: string,
  target: string,
): Promise<BranchDiff> {
  const base = await host.git(repo, ["merge-base", target, `refs/heads/${branch}`]);
  if (!base.ok) return { ok: false, message: `no common history between ${branch} and ${target}` };
  const mergeBase = base.stdout.trim();
  const diff = await treeDiff(
    (args, options) => host.git(repo, args, options),
    mergeBase,
    `refs/heads/${branch}`,
  );
  return diff.ok ? { ...diff, mergeBase } : diff;
}
