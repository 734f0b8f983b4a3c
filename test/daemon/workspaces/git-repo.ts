/** Real git repositories for the workspace tests, made with the git CLI in a temp folder. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../agent/support/agent-process.ts";

export function sh(cwd: string, ...args: string[]): string {
  const run = Bun.spawnSync(["git", ...args], {
    cwd,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "Test",
      GIT_AUTHOR_EMAIL: "test@shard.local",
      GIT_COMMITTER_NAME: "Test",
      GIT_COMMITTER_EMAIL: "test@shard.local",
    },
  });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
  return run.stdout.toString().trim();
}

/** A repository on `main` with one commit. */
export function makeRepo(): string {
  const repo = tempDir("repo");
  sh(repo, "init", "-q", "-b", "main");
  writeFileSync(join(repo, "README.md"), "hello\n");
  sh(repo, "add", ".");
  sh(repo, "commit", "-q", "-m", "initial");
  return repo;
}

export function commitFile(cwd: string, name: string, content: string, message = `edit ${name}`): void {
  writeFileSync(join(cwd, name), content);
  sh(cwd, "add", name);
  sh(cwd, "commit", "-q", "-m", message);
}
