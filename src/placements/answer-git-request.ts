/**
 * The far side of `shard placement git` (git-request.ts): runs the daemon's request on this
 * machine with git's repository commands switched off, and says what git said.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { snapshotWorkTree } from "../daemon/changes/work-tree-snapshot.ts";
import { distrustingEnv } from "../git/distrusting-git.ts";
import { git } from "../git/git.ts";
import type { GitRequest, SnapshotAnswer } from "./git-request.ts";

export async function answerGitRequest(request: GitRequest): Promise<object> {
  if (request.op === "snapshot") return snapshotHere(request.cwd);
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
