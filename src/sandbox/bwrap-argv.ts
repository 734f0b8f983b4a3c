/**
 * The bubblewrap command line for a profile (docs/sandbox.md §mechanism). Mounts are applied
 * shallowest first, so the deepest rule above a path wins: a worktree inside the hidden
 * `$SHARD_HOME` is uncovered again, and a secret inside the workspace stays hidden.
 */
import { statSync } from "node:fs";
import { sep } from "node:path";
import type { SandboxProfile } from "./sandbox-profile.ts";

/** Where the filtering proxy's socket appears inside the sandbox. */
export const PROXY_SOCKET_INSIDE = "/run/shard-proxy.sock";

type Mount = { path: string; order: number; args: string[] };

export function bwrapArgv(bwrap: string, profile: SandboxProfile, command: readonly string[]): string[] {
  const hiddenDirs = profile.hidden.filter(isDirectory);
  const mounts: Mount[] = [
    ...profile.hidden.map((path) => ({
      path,
      order: 1,
      // An empty directory over a directory, the empty /dev/null over a file.
      args: hiddenDirs.includes(path) ? ["--tmpfs", path] : ["--ro-bind", "/dev/null", path],
    })),
    ...profile.readable.map((path) => ({ path, order: 2, args: ["--ro-bind", path, path] })),
    ...profile.writable.map((path) => ({ path, order: 2, args: ["--bind", path, path] })),
    ...profile.protected.map((path) => ({ path, order: 3, args: ["--ro-bind", path, path] })),
  ];
  if (profile.proxySocket !== undefined) {
    mounts.push({
      path: PROXY_SOCKET_INSIDE,
      order: 4,
      args: ["--bind", profile.proxySocket, PROXY_SOCKET_INSIDE],
    });
  }
  mounts.sort((a, b) => depth(a.path) - depth(b.path) || a.order - b.order);
  return [
    bwrap,
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    ...mounts.flatMap((m) => m.args),
    // Last, so the mount points of deeper binds could still be made inside the empty dirs.
    ...hiddenDirs.flatMap((path) => ["--remount-ro", path]),
    "--setenv",
    "TMPDIR",
    profile.tmpdir,
    "--chdir",
    profile.cwd,
    // Own user, pid, network, ipc, uts and cgroup namespaces: no host processes in /proc, no
    // network but loopback, and the whole tree dies with the command.
    "--unshare-all",
    "--die-with-parent",
    // A new session: no TIOCSTI into a terminal the agent was started from.
    "--new-session",
    "--",
    ...command,
  ];
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    // Vanished since the profile was made: an empty directory hides whatever comes back.
    return true;
  }
}

function depth(path: string): number {
  return path === sep ? 0 : path.split(sep).length - 1;
}
