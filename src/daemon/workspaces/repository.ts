/**
 * What the workspace manager asks of a git repository: its main checkout root, the opaque
 * fingerprints of its git dirs, whether a ref or branch exists, and whether a worktree is
 * dirty. Every answer is a value; paths of git directories never leave this module except
 * hashed.
 */
import { createHash } from "node:crypto";
import { dirname, isAbsolute, join } from "node:path";
import { gitComplaint } from "../../git/git.ts";
import type { Found } from "../../placements/placement-git.ts";
import type { WorkspaceHost } from "./workspace-host.ts";

export function fingerprint(path: string): string {
  return createHash("sha256").update(path).digest("base64url").slice(0, 22);
}

export interface Repository {
  /** The main checkout's root (where `.git` lives), even when `cwd` is inside a worktree. */
  root: string;
  /** Hash of the common git dir: equal for every worktree of one repository. */
  fingerprint: string;
}

export async function openRepository(host: WorkspaceHost, cwd: string): Promise<Found<Repository>> {
  if ((await host.realpath(cwd)) === undefined) return { ok: false, message: `${cwd} does not exist` };
  const [common, bare] = await Promise.all([
    host.git(cwd, ["rev-parse", "--path-format=absolute", "--git-common-dir"]),
    host.git(cwd, ["rev-parse", "--is-bare-repository"]),
  ]);
  const commonDir = common.ok ? await host.realpath(common.stdout.trim()) : undefined;
  if (commonDir === undefined) return { ok: false, message: `${cwd} is not inside a git repository` };
  if (bare.stdout.trim() === "true")
    return { ok: false, message: `${cwd} is a bare repository; use a checkout` };
  // A main checkout's common dir is <root>/.git; anything else (a separate git dir) has no root here.
  if (!commonDir.endsWith("/.git")) {
    return {
      ok: false,
      message: `the repository at ${cwd} keeps its git dir elsewhere; open its main checkout`,
    };
  }
  return { ok: true, value: { root: dirname(commonDir), fingerprint: fingerprint(commonDir) } };
}

/** The commit a ref names, or why it names none. */
export async function resolveCommit(host: WorkspaceHost, repo: string, ref: string): Promise<Found<string>> {
  if (ref.startsWith("-")) return { ok: false, message: `"${ref}" is not a ref` };
  const resolved = await host.git(repo, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  return resolved.ok
    ? { ok: true, value: resolved.stdout.trim() }
    : { ok: false, message: `unknown ref "${ref}" in ${repo}` };
}

export async function currentBranch(host: WorkspaceHost, repo: string): Promise<string | undefined> {
  const head = await host.git(repo, ["symbolic-ref", "--quiet", "--short", "HEAD"]);
  return head.ok ? head.stdout.trim() : undefined;
}

/** The full ref HEAD names (`refs/heads/…`), or undefined when HEAD is detached. */
export async function headRef(host: WorkspaceHost, worktree: string): Promise<string | undefined> {
  const head = await host.git(worktree, ["symbolic-ref", "--quiet", "HEAD"]);
  return head.ok ? head.stdout.trim() : undefined;
}

export async function branchExists(host: WorkspaceHost, repo: string, branch: string): Promise<boolean> {
  return (await host.git(repo, ["show-ref", "--verify", "--quiet", `refs/heads/${branch}`])).ok;
}

/**
 * A name git takes for a new branch, and not one that reads as a full ref (`refs/heads/x`
 * would become `refs/heads/refs/heads/x`) or that no process argument can carry (NUL).
 */
export async function validBranchName(host: WorkspaceHost, repo: string, branch: string): Promise<boolean> {
  if (branch.startsWith("-") || branch.startsWith("refs/") || branch.includes("\0")) return false;
  return (await host.git(repo, ["check-ref-format", "--branch", branch])).ok;
}

/** Uncommitted or untracked changes in a worktree, as git's short status lines. */
export async function dirtyState(host: WorkspaceHost, worktree: string): Promise<Found<string[]>> {
  const status = await host.git(worktree, ["status", "--porcelain", "--untracked-files=normal"]);
  if (!status.ok) return { ok: false, message: gitComplaint(status) };
  return { ok: true, value: status.stdout.split("\n").filter((l) => l.trim() !== "") };
}

/** The hash of a worktree's own git dir, or undefined when it is no worktree any more. */
export async function worktreeFingerprint(
  host: WorkspaceHost,
  worktree: string,
): Promise<string | undefined> {
  if ((await host.realpath(join(worktree, ".git"))) === undefined) return undefined;
  const dir = await host.git(worktree, ["rev-parse", "--path-format=absolute", "--git-dir"]);
  if (!dir.ok) return undefined;
  const path = dir.stdout.trim();
  const real = isAbsolute(path) ? await host.realpath(path) : undefined;
  return real === undefined ? undefined : fingerprint(real);
}
