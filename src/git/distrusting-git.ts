/**
 * git in an agent's working directory, a repository the agent itself can write to: its
 * `.git/config` and hooks may name commands (an fsmonitor, a clean filter, a hook on a ref
 * update) that a plain `git status` or `git add` would run as the daemon. Every call here
 * overrides them as command-line config (GIT_CONFIG_COUNT/KEY/VALUE: a key is never parsed
 * out of `key=value`, so no driver name can split it), which wins over every config file:
 * `core.fsmonitor=false`, hooks from an empty directory, and each filter driver the
 * repository's config names emptied (git runs no filter whose command is empty). Diffs run
 * with no external driver and no textconv (tree-diff.ts).
 */
import { type GitOptions, type GitResult, type GitRunner, git } from "./git.ts";

const FIXED: [string, string][] = [
  ["core.fsmonitor", "false"],
  ["core.hooksPath", "/dev/null"],
  ["core.untrackedCache", "false"],
  ["commit.gpgSign", "false"],
];

/** Filter settings that name a command, or make a missing one fatal. */
const FILTER_KEY = /^filter\.(.+)\.(clean|smudge|process|required)$/s;

function configEnv(pairs: [string, string][]): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length) };
  pairs.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/**
 * The environment that switches the repository's own commands off, for git run anywhere in
 * the repository `cwd` is in.
 */
export async function distrustingEnv(cwd: string): Promise<Record<string, string>> {
  // Reading config runs nothing; -z keeps a driver name with a newline in it one name.
  const listed = await git(cwd, ["config", "-z", "--name-only", "--get-regexp", "^filter\\."], {
    maxStdoutBytes: 256 * 1024,
    env: configEnv(FIXED),
  });
  const pairs = [...FIXED];
  const drivers = new Set<string>();
  for (const key of listed.stdout.split("\0")) {
    const driver = FILTER_KEY.exec(key)?.[1];
    if (driver === undefined || drivers.has(driver)) continue;
    drivers.add(driver);
    pairs.push([`filter.${driver}.clean`, ""], [`filter.${driver}.smudge`, ""]);
    pairs.push([`filter.${driver}.process`, ""], [`filter.${driver}.required`, "false"]);
  }
  return configEnv(pairs);
}

/** A runner in `dir` with `env` (from distrustingEnv) on every call. */
export function distrustingGit(dir: string, env: Record<string, string>): GitRunner {
  return (args: string[], options?: GitOptions): Promise<GitResult> =>
    git(dir, args, { ...options, env: { ...options?.env, ...env } });
}
