/**
 * The diff between two commits or trees, parsed into files and hunks. Bounded: at most
 * MAX_DIFF_BYTES of git output, MAX_FILES files and MAX_LINES hunk lines; past that the answer
 * says `truncated`. No external diff driver and no textconv runs: a repository's config and
 * attributes name commands, and a diff is read, never executed.
 */
import { parsePatch } from "diff";
import type { Hunk } from "../types/render.ts";
import type { WorkspaceDiffFile } from "../types/workspace.ts";
import { type GitRunner, git, gitComplaint } from "./git.ts";

export const MAX_DIFF_BYTES = 4 * 1024 * 1024;
export const MAX_FILES = 300;
const MAX_LINES = 20_000;

export type TreeDiff =
  | { ok: true; files: WorkspaceDiffFile[]; truncated: boolean }
  | { ok: false; message: string };

export function plainGit(repo: string): GitRunner {
  return (args, options) => git(repo, args, options);
}

/**
 * `from` and `to` are object names the caller resolved itself (never a client's text). Without
 * `renames` a rename is a deletion and an addition, as checkpoints count files.
 */
export async function treeDiff(
  run: GitRunner,
  from: string,
  to: string,
  options: { renames?: boolean } = {},
): Promise<TreeDiff> {
  const renames = options.renames === false ? "--no-renames" : "--find-renames";
  const diff = await run(
    ["diff", "--no-color", "--no-ext-diff", "--no-textconv", renames, "-U3", from, to, "--"],
    { maxStdoutBytes: MAX_DIFF_BYTES },
  );
  if (!diff.ok) return { ok: false, message: `git diff failed: ${gitComplaint(diff)}` };
  const files: WorkspaceDiffFile[] = [];
  let lines = 0;
  let truncated = diff.cut === true;
  for (const patch of parsePatch(truncated ? wholeFiles(diff.stdout) : diff.stdout)) {
    if (files.length >= MAX_FILES || lines >= MAX_LINES) {
      truncated = true;
      break;
    }
    const oldPath = stripPrefix(patch.oldFileName);
    const newPath = stripPrefix(patch.newFileName);
    // No diff at all parses as one patch naming no file.
    if (oldPath === undefined && newPath === undefined) continue;
    const hunks: Hunk[] = patch.hunks.map((h) => ({
      old_start: h.oldStart,
      old_lines: h.oldLines,
      new_start: h.newStart,
      new_lines: h.newLines,
      lines: h.lines,
    }));
    lines += hunks.reduce((n, h) => n + h.lines.length, 0);
    const changed = hunks.flatMap((h) => h.lines);
    const status =
      oldPath === undefined
        ? "added"
        : newPath === undefined
          ? "deleted"
          : oldPath !== newPath
            ? "renamed"
            : "modified";
    files.push({
      path: newPath ?? oldPath ?? "",
      ...(status === "renamed" && oldPath !== undefined ? { old_path: oldPath } : {}),
      status,
      additions: changed.filter((l) => l.startsWith("+")).length,
      deletions: changed.filter((l) => l.startsWith("-")).length,
      hunks,
      ...(hunks.length === 0 && status !== "renamed" ? { binary: true } : {}),
    });
  }
  return { ok: true, files, truncated };
}

/** `a/src/x.ts` → `src/x.ts`; `/dev/null` (the side a file was added or deleted on) → undefined. */
function stripPrefix(name: string | undefined): string | undefined {
  if (name === undefined || name === "/dev/null") return undefined;
  return name.replace(/^[ab]\//, "");
}

/**
 * Output cut at MAX_DIFF_BYTES ends inside a hunk, which the patch parser refuses outright:
 * keep the files before the last one that began, which are whole.
 */
export function wholeFiles(stdout: string): string {
  const last = stdout.lastIndexOf("\ndiff --git ");
  return last < 0 ? "" : stdout.slice(0, last + 1);
}
