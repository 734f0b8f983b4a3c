/**
 * Where a project's `.mcp.json` lives: the top-level of the repository holding the agent's cwd,
 * found from `.git` alone (no git process: the repository's own git config is untrusted, and it
 * could name a program to run), or the cwd itself outside a repository.
 */
import { statSync } from "node:fs";
import { dirname, join } from "node:path";

/** `cwd` must be absolute and symlink-resolved; so is the answer (it is one of its ancestors). */
export function projectRoot(cwd: string): string {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (hasDotGit(dir)) return dir;
    if (dirname(dir) === dir) return cwd;
  }
}

/** A `.git` directory (a repository) or file (a linked worktree or submodule) marks the top-level. */
function hasDotGit(dir: string): boolean {
  try {
    const stat = statSync(join(dir, ".git"));
    return stat.isDirectory() || stat.isFile();
  } catch {
    return false;
  }
}
