/** The user's own git state, hashed file by file: what checkpoints must leave byte-identical. */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** Every file of the user's .git that a checkpoint must not write: HEAD, refs, index, stash, hooks, config. */
export function userGitState(repo: string): Record<string, string> {
  const git = join(repo, ".git");
  const state: Record<string, string> = {};
  const walk = (path: string) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path)) walk(join(path, name));
      return;
    }
    state[relative(git, path)] = createHash("sha256").update(readFileSync(path)).digest("hex");
  };
  for (const name of ["HEAD", "index", "config", "packed-refs", "refs", "hooks", "logs", "info"])
    walk(join(git, name));
  return state;
}
