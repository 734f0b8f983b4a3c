/**
 * A retired workspace's checkpoints (docs/checkpoints.md): every session that ran in its
 * worktree has a shadow repository whose work tree is gone with the worktree, so they go too.
 * Which sessions: those bound to the workspace, and every session whose recorded cwd is the
 * worktree or lies inside it (an agent's fork after a conversation restore, a subagent's
 * session). Called by the retire after git removed the worktree and before the tombstone is
 * saved, so a crash in between runs it again from the retire intent; removing is idempotent.
 */
import { existsSync, realpathSync, rmSync } from "node:fs";
import { resolve, sep } from "node:path";
import { checkpointsDir } from "../../checkpoints/checkpoints-dir.ts";
import { isSessionId } from "../../session/ids.ts";
import { listSessions } from "../../session/list-sessions.ts";
import type { WorkspaceRecord } from "./workspace-record.ts";

/** The session ids whose checkpoints the retire of `record` removes. */
export function workspaceSessions(home: string, record: WorkspaceRecord): Set<string> {
  const roots = new Set([resolve(record.worktree_path)]);
  // The recorded cwd of a session is canonical; the worktree, while it still exists, may not be.
  if (existsSync(record.worktree_path)) roots.add(realpathSync(record.worktree_path));
  const within = (cwd: string) => [...roots].some((root) => cwd === root || cwd.startsWith(root + sep));
  const ids = new Set(record.bindings.map((b) => b.session_id));
  // A session file that cannot be read is skipped here: its checkpoints stay, as its session does.
  for (const session of listSessions(home, undefined, () => {})) {
    if (within(session.cwd)) ids.add(session.session_id);
  }
  return ids;
}

export function removeCheckpointsOf(home: string, sessionIds: Iterable<string>): void {
  for (const id of sessionIds) {
    if (isSessionId(id)) rmSync(checkpointsDir(home, id), { recursive: true, force: true });
  }
}
