/**
 * A working tree as a git tree object, untracked files included: a private copy of the
 * repository's index (so unchanged files are not hashed again), every tracked file updated
 * from disk, every untracked file that is not ignored added, then `write-tree`. The user's
 * own index and staging are never touched; blobs land in the repository's object store, as
 * `git stash` would put them. Untracked files over MAX_UNTRACKED_BYTES, and past
 * MAX_UNTRACKED_FILES, are left out (the snapshot says `truncated`).
 */
import { randomUUID } from "node:crypto";
import { copyFileSync, existsSync, lstatSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type GitRunner, gitComplaint } from "../../git/git.ts";
import { repositoryAt } from "../../git/repository-at.ts";
import { describeError } from "../../support/describe-error.ts";

export const MAX_UNTRACKED_BYTES = 16 * 1024 * 1024;
export const MAX_UNTRACKED_FILES = 10_000;
/** A snapshot of a large tree must not hold a daemon command for long. */
const SNAPSHOT_TIMEOUT_MS = 30_000;

export type Snapshot =
  | { ok: true; run: GitRunner; root: string; tree: string; head?: string; truncated: boolean }
  | { ok: false; notGit: true }
  | { ok: false; notGit: false; message: string };

/** `scratch` is a daemon-private folder for the temporary index. */
export async function snapshotWorkTree(cwd: string, scratch: string): Promise<Snapshot> {
  const repo = await repositoryAt(cwd);
  if (repo === undefined) return { ok: false, notGit: true };
  const { run } = repo;
  const head = await run(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]);
  const index = join(scratch, `${randomUUID()}.index`);
  const pathspecs = `${index}.paths`;
  const env = { GIT_INDEX_FILE: index, GIT_LITERAL_PATHSPECS: "1" };
  const options = { env, timeoutMs: SNAPSHOT_TIMEOUT_MS };
  try {
    if (existsSync(repo.index)) {
      copyFileSync(repo.index, index);
      // Keep the index's own time: git trusts an entry's cached stat only for files older than
      // the index ("racy git"), so a fresh copy would hide an edit of the same size made in the
      // same second as the user's last `git add` or commit.
      const { atime, mtime } = statSync(repo.index);
      utimesSync(index, atime, mtime);
    }
    const tracked = await run(["add", "--update"], options);
    if (!tracked.ok) return failed("reading the tracked files", tracked);
    const listed = await run(["ls-files", "-z", "--others", "--exclude-standard"], {
      ...options,
      maxStdoutBytes: 4 * 1024 * 1024,
    });
    if (!listed.ok) return failed("listing the untracked files", listed);
    const untracked = smallFiles(repo.root, listed.stdout.split("\0"), listed.cut === true);
    if (untracked.paths.length > 0) {
      writeFileSync(pathspecs, `${untracked.paths.join("\0")}\0`, { mode: 0o600 });
      const added = await run(["add", "--pathspec-from-file", pathspecs, "--pathspec-file-nul"], options);
      if (!added.ok) return failed("reading the untracked files", added);
    }
    const tree = await run(["write-tree"], options);
    if (!tree.ok) return failed("writing the tree", tree);
    return {
      ok: true,
      run,
      root: repo.root,
      tree: tree.stdout.trim(),
      ...(head.ok ? { head: head.stdout.trim() } : {}),
      truncated: untracked.truncated,
    };
  } catch (err) {
    return { ok: false, notGit: false, message: `the snapshot failed: ${describeError(err)}` };
  } finally {
    rmSync(index, { force: true });
    rmSync(pathspecs, { force: true });
  }
}

function failed(what: string, result: { stderr: string; code: number }): Snapshot {
  return {
    ok: false,
    notGit: false,
    message: `git failed ${what}: ${gitComplaint({ ok: false, stdout: "", ...result })}`,
  };
}

/** The untracked paths worth a snapshot: regular files and links within the caps. */
function smallFiles(root: string, names: string[], cut: boolean): { paths: string[]; truncated: boolean } {
  // A cut listing ends in half a name.
  const whole = cut ? names.slice(0, -1) : names;
  const paths: string[] = [];
  let truncated = cut;
  for (const name of whole) {
    if (name === "") continue;
    if (paths.length >= MAX_UNTRACKED_FILES) {
      truncated = true;
      break;
    }
    try {
      const stat = lstatSync(join(root, name));
      if (stat.size > MAX_UNTRACKED_BYTES) truncated = true;
      else paths.push(name);
    } catch {
      // Gone since git listed it (the agent is working): it is simply not in this snapshot.
    }
  }
  return { paths, truncated };
}
