/**
 * What in the shared temp dir a confined command must not reach. A read-only mount does not stop
 * `connect()` on a unix socket, and a tmux or ssh-agent socket is a way out (send keys to the
 * user's shell, sign with their keys). So every socket directly in /tmp, and the directories
 * such programs keep theirs in, are hidden; the rest of /tmp stays readable like the rest of the
 * filesystem (a tool or an MCP server installed there must still run).
 */
import { type Dirent, lstatSync, readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { isInside } from "../permissions/paths.ts";
import { realPathOrSelf } from "../support/real-path.ts";

/** Directories of per-user sockets (tmux, ssh-agent, X11, ICE, systemd's private tmp, gpg, vscode). */
const SOCKET_DIRS =
  /^(tmux-\d+|ssh-|\.X11-unix$|\.ICE-unix$|\.XIM-unix$|\.font-unix$|systemd-private-|gpg-|vscode-)/;

export function tmpSocketPaths(tmp = "/tmp"): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(tmp, { withFileTypes: true });
  } catch {
    return [];
  }
  const hidden: string[] = [];
  for (const entry of entries) {
    if (isSocketEntry(entry)) hidden.push(join(tmp, entry.name));
  }
  return hidden;
}

/**
 * The same, for a question about one real path only (a file tool's): of the entries of /tmp only
 * the one the path lies in can hide it, and none can when it lies outside /tmp. So a path in /tmp
 * costs one lstat, not a listing of the whole shared temp dir (thousands of entries on a busy
 * machine, ~3 ms a call). /tmp itself or a directory above it still gets the full listing.
 */
export function tmpSocketPathsAbout(realPath: string, tmp = "/tmp"): string[] {
  const realTmp = realPathOrSelf(tmp);
  if (isInside(realPath, realTmp)) return tmpSocketPaths(tmp);
  if (!isInside(realTmp, realPath)) return [];
  const name = relative(realTmp, realPath).split(sep)[0] ?? "";
  try {
    const stat = lstatSync(join(tmp, name));
    const entry = { name, isSocket: () => stat.isSocket(), isDirectory: () => stat.isDirectory() };
    return isSocketEntry(entry) ? [join(tmp, name)] : [];
  } catch {
    return [];
  }
}

function isSocketEntry(entry: Pick<Dirent, "name" | "isSocket" | "isDirectory">): boolean {
  return entry.isSocket() || (entry.isDirectory() && SOCKET_DIRS.test(entry.name));
}
