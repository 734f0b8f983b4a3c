/**
 * What in the shared temp dir a confined command must not reach. A read-only mount does not stop
 * `connect()` on a unix socket, and a tmux or ssh-agent socket is a way out (send keys to the
 * user's shell, sign with their keys). So every socket directly in /tmp, and the directories
 * such programs keep theirs in, are hidden; the rest of /tmp stays readable like the rest of the
 * filesystem (a tool or an MCP server installed there must still run).
 */
import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";

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
    if (entry.isSocket() || (entry.isDirectory() && SOCKET_DIRS.test(entry.name)))
      hidden.push(join(tmp, entry.name));
  }
  return hidden;
}
