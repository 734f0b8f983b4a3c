/**
 * The far side of `shard placement git` (git-request.ts): runs the daemon's request on this
 * machine with git's repository commands switched off, and says what git said.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { snapshotWorkTree } from "../daemon/changes/work-tree-snapshot.ts";
import { distrustingEnv } from "../git/distrusting-git.ts";
import { git } from "../git/git.ts";
import { isBelow } from "../support/below-dir.ts";
import { shardHome } from "../support/shard-home.ts";
import type { GitRequest, SnapshotAnswer } from "./git-request.ts";

export async function answerGitRequest(request: GitRequest): Promise<object> {
  switch (request.op) {
    case "snapshot":
      return snapshotHere(request.cwd);
    case "realpath":
      return { real: realOrNull(request.path) };
    case "worktrees_dir": {
      const path = join(shardHome(process.env), "worktrees");
      mkdirSync(path, { recursive: true, mode: 0o700 });
      return { path };
    }
    case "remove_below": {
      const below = isBelow(request.path, request.dir);
      if (below) rmSync(request.path, { recursive: true, force: true });
      return { removed: below };
    }
  }
  // The distrust goes last: nothing the request carries turns a repository command back on.
  const env = { ...request.env, ...(await distrustingEnv(request.cwd)) };
  const result = await git(request.cwd, request.args, {
    env,
    ...(request.timeout_ms !== undefined ? { timeoutMs: request.timeout_ms } : {}),
    ...(request.max_stdout_bytes !== undefined ? { maxStdoutBytes: request.max_stdout_bytes } : {}),
  });
  return {
    code: result.code,
    stdout: result.stdout,
    // A long complaint is cut: the daemon shows its first line.
    stderr: result.stderr.slice(0, 64 * 1024),
    ...(result.cut === true ? { cut: true } : {}),
  };
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

async function snapshotHere(cwd: string): Promise<SnapshotAnswer> {
  // The temporary index lives in a private folder of this machine's, gone after.
  const scratch = mkdtempSync(join(tmpdir(), "shard-snapshot-"));
  try {
    const snapshot = await snapshotWorkTree(cwd, scratch);
    if (!snapshot.ok) return snapshot;
    return {
      ok: true,
      root: snapshot.root,
      tree: snapshot.tree,
      ...(snapshot.head !== undefined ? { head: snapshot.head } : {}),
      truncated: snapshot.truncated,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
