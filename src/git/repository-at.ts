/** The git repository a directory is in, found with git's own commands switched off. */
import { existsSync } from "node:fs";
import { distrustingEnv, distrustingGit } from "./distrusting-git.ts";
import type { GitRunner } from "./git.ts";

export interface Repository {
  /** Runs git at the repository's top level, its own commands switched off. */
  run: GitRunner;
  root: string;
  /** Where the repository keeps the index of this working tree. */
  index: string;
}

/** The repository `cwd` is in; undefined when none (or no working tree: a bare one, a .git dir). */
export async function repositoryAt(cwd: string): Promise<Repository | undefined> {
  if (!existsSync(cwd)) return undefined;
  const env = await distrustingEnv(cwd);
  const found = await distrustingGit(
    cwd,
    env,
  )(["rev-parse", "--path-format=absolute", "--show-toplevel", "--git-path", "index"]);
  const [root, index] = found.stdout.split("\n");
  if (!found.ok || root === undefined || index === undefined || root === "" || index === "") return undefined;
  return { run: distrustingGit(root, env), root, index };
}
