/**
 * What a confined command may touch (docs/sandbox.md): the writable roots, what stays read-only
 * inside them, and what is invisible. Every path is real (symlinks resolved), because the kernel
 * mounts real paths and a symlink spelled in a config must not widen or dodge a rule.
 */
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { isInside } from "../permissions/paths.ts";
import { expandHome, realPathOrSelf } from "../support/real-path.ts";
import { repositoryGitDirs } from "./git-dirs.ts";
import { tmpSocketPaths, tmpSocketPathsAbout } from "./tmp-sockets.ts";

export type ConfinedMode = "read-only" | "workspace-write";

export interface SandboxProfile {
  mode: ConfinedMode;
  cwd: string;
  /** Bound read-write at their own path. */
  writable: string[];
  /** Read-only even where they lie inside a writable root (git hooks and config). */
  protected: string[];
  /**
   * Bound read-only at their own path: the cwd in read-only mode (it may lie in the hidden
   * `$SHARD_HOME`, a workspace's worktree), and the repository's git dirs.
   */
  readable: string[];
  /** Replaced by an empty read-only directory (or an empty file): their content cannot be read. */
  hidden: string[];
  /** The private TMPDIR, writable in every confined mode. */
  tmpdir: string;
  /** A unix socket of the filtering proxy (docs/sandbox.md §network); absent means no network. */
  proxySocket?: string;
}

/** Secrets every confined command is kept from, besides `$SHARD_HOME` and `sandbox.deny`. */
export const DEFAULT_HIDDEN = [
  "~/.ssh",
  "~/.aws",
  "~/.config/gh",
  "~/.netrc",
  "~/.gnupg",
  "~/.git-credentials",
  "~/.config/gcloud",
  "~/.azure",
  "~/.kube",
  "~/.docker",
  // Host sockets (docker, dbus, ssh-agent) are reachable through a read-only mount; hide them.
  "/run",
] as const;

export interface ProfileInput {
  mode: ConfinedMode;
  /** The agent's real working directory (its worktree when it has one). */
  cwd: string;
  /** `$SHARD_HOME`: grants, the security store, sessions and other agents' worktrees. */
  home: string;
  tmpdir: string;
  /** `sandbox.deny` from the config and the agent, `~` allowed; relative entries are relative to cwd. */
  deny: readonly string[];
  proxySocket?: string;
  /**
   * The one real path the profile is asked about (a file tool's path, or the root a recursive
   * one walks): hidden sockets in /tmp that can neither hide it nor lie below it are left out.
   * Absent for a confined command's mounts, which list them all.
   */
  about?: string;
}

export function sandboxProfile(input: ProfileInput): SandboxProfile {
  const writable = [realPathOrSelf(input.tmpdir)];
  const protectedPaths: string[] = [];
  const git = repositoryGitDirs(input.cwd);
  for (const dir of git) protectedPaths.push(join(dir, "hooks"), join(dir, "config"));
  const outsideGitDirs = git.filter((dir) => !isInside(input.cwd, dir));
  // A worktree's commits land in the main repository's git dir, outside cwd.
  if (input.mode === "workspace-write") writable.push(input.cwd, ...outsideGitDirs);
  const readable = input.mode === "read-only" ? [input.cwd, ...outsideGitDirs] : [];
  const hidden = [input.home, ...DEFAULT_HIDDEN, ...input.deny, ...tmpSockets(input.about)]
    .map((p) => expandHome(p))
    .map((p) => (isAbsolute(p) ? p : join(input.cwd, p)))
    .filter((p) => existsSync(p))
    .map(realPathOrSelf);
  return {
    mode: input.mode,
    cwd: input.cwd,
    writable: unique(writable),
    protected: unique(protectedPaths.filter((p) => existsSync(p)).map(realPathOrSelf)),
    readable: unique(readable.map(realPathOrSelf)),
    hidden: unique(hidden),
    tmpdir: realPathOrSelf(input.tmpdir),
    ...(input.proxySocket !== undefined ? { proxySocket: input.proxySocket } : {}),
  };
}

/**
 * True when a confined command could write `realPath` (the file tools ask the same question):
 * the deepest mount above it decides, as it does in the kernel.
 */
export function writableIn(profile: SandboxProfile, realPath: string): boolean {
  if (profile.protected.some((p) => isInside(p, realPath))) return false;
  const root = longestContaining(profile.writable, realPath);
  if (root === undefined) return false;
  const hiddenBy = longestContaining(profile.hidden, realPath);
  return hiddenBy === undefined || root.length > hiddenBy.length;
}

/** True when `realPath` lies under a hidden path that no deeper bound root uncovers. */
export function isHiddenIn(profile: SandboxProfile, realPath: string): boolean {
  const hiddenBy = longestContaining(profile.hidden, realPath);
  if (hiddenBy === undefined) return false;
  const uncoveredBy = longestContaining([...profile.writable, ...profile.readable], realPath);
  return uncoveredBy === undefined || uncoveredBy.length <= hiddenBy.length;
}

/**
 * The hidden paths strictly below `realRoot`: what a recursive file tool (grep, find, ls) started
 * there must leave out, since reading the root itself is allowed.
 */
export function hiddenBelow(profile: SandboxProfile, realRoot: string): string[] {
  return profile.hidden.filter((p) => p !== realRoot && isInside(realRoot, p) && isHiddenIn(profile, p));
}

function longestContaining(roots: readonly string[], realPath: string): string | undefined {
  let best: string | undefined;
  for (const root of roots) {
    if (isInside(root, realPath) && (best === undefined || root.length > best.length)) best = root;
  }
  return best;
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}

function tmpSockets(about: string | undefined): string[] {
  return about === undefined ? tmpSocketPaths() : tmpSocketPathsAbout(about);
}
