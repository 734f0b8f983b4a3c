/**
 * The git directories of the repository holding `cwd`, read from `.git` itself (no git process:
 * this runs before every confined command, and repository config is untrusted). A worktree's
 * `.git` file names its own git dir, whose `commondir` names the main one.
 */
import { readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

/** The git dir and, for a linked worktree, the common git dir; empty outside a repository. */
export function repositoryGitDirs(cwd: string): string[] {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    const kind = kindOf(dotGit);
    if (kind === "dir") return [dotGit];
    if (kind === "file") return linkedGitDirs(dotGit);
    if (dirname(dir) === dir) return [];
  }
}

function linkedGitDirs(dotGitFile: string): string[] {
  const gitDir = pointer(dotGitFile, /^gitdir: (.+)$/m);
  if (gitDir === undefined || kindOf(gitDir) !== "dir") return [];
  const common = pointer(join(gitDir, "commondir"), /^(.+)$/m);
  return common !== undefined && kindOf(common) === "dir" ? [gitDir, common] : [gitDir];
}

/** The path a pointer file names, resolved against the file's own directory. */
function pointer(file: string, pattern: RegExp): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const named = pattern.exec(text)?.[1]?.trim();
  if (!named) return undefined;
  return isAbsolute(named) ? named : resolve(dirname(file), named);
}

function kindOf(path: string): "dir" | "file" | undefined {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? "dir" : stat.isFile() ? "file" : undefined;
  } catch {
    return undefined;
  }
}
