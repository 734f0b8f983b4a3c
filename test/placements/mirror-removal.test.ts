/**
 * `agent.delete {session: true}` of a placed agent removes the daemon's copies of its session
 * and of the session's forks (src/daemon/registry/mirror-removal.ts), also when a crash left the
 * delete half done and the next daemon start finishes it.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ManifestStore } from "../../src/daemon/registry/manifest-store.ts";
import { removeMirroredSession } from "../../src/daemon/registry/mirror-removal.ts";
import { mirrorPath } from "../../src/daemon/registry/session-mirror.ts";
import { tempDir } from "../agent/support/agent-process.ts";

function copy(home: string, sessionId: string, source?: string): string {
  const path = mirrorPath(home, "box", sessionId);
  mkdirSync(dirname(path), { recursive: true });
  const header = {
    type: "session",
    version: 1,
    session_id: sessionId,
    cwd: "/far/repo",
    created_at: 1,
    ...(source !== undefined
      ? { fork: { fork_id: `fork_${sessionId}`, source_session_id: source, source_entry_id: "e1" } }
      : {}),
  };
  writeFileSync(path, `${JSON.stringify(header)}\n`);
  return path;
}

test("a session's copy goes with the copies of its forks at any depth; its source and others stay", () => {
  const home = tempDir("mirror-removal");
  const source = copy(home, "ses_source");
  const fork = copy(home, "ses_fork", "ses_source");
  const forkOfFork = copy(home, "ses_forkfork", "ses_fork");
  const other = copy(home, "ses_other");
  const otherFork = copy(home, "ses_otherfork", "ses_other");
  const notASession = join(dirname(dirname(source)), "ses_bad");
  mkdirSync(notASession);

  removeMirroredSession(home, "box", "ses_fork");
  expect(existsSync(dirname(fork))).toBe(false);
  expect(existsSync(dirname(forkOfFork))).toBe(false);
  expect(existsSync(source)).toBe(true);

  removeMirroredSession(home, "box", "ses_source");
  expect(existsSync(dirname(source))).toBe(false);
  expect([existsSync(other), existsSync(otherFork), existsSync(notASession)]).toEqual([true, true, true]);
  // Again (a crash re-runs it), and for a placement without copies: nothing to do, no throw.
  removeMirroredSession(home, "box", "ses_source");
  removeMirroredSession(home, "elsewhere", "ses_other");
  // Never a path: an id or a placement name that is not one removes nothing.
  removeMirroredSession(home, "box", "..");
  removeMirroredSession(home, "../box", "ses_other");
  expect(existsSync(other)).toBe(true);
});

test("a delete with the session that a crash interrupted is finished at the next start, copies included", () => {
  const home = tempDir("mirror-removal-crash");
  const store = new ManifestStore(home);
  const agentId = "agent-placedAAAAAAAAAAAAAAA";
  store.save({
    version: 1,
    agent_id: agentId,
    cwd: "/far/repo",
    created_at: 1,
    headless_policy: "deny",
    model: "mock/chat",
    placement: "box",
    session_id: "ses_placed",
  });
  const mine = copy(home, "ses_placed");
  const kept = copy(home, "ses_kept");
  // What the delete's committing step leaves if the daemon dies right after it.
  store.discard(agentId, true);
  expect(existsSync(mine)).toBe(true);
  const { manifests, deleted } = new ManifestStore(home).loadAll();
  expect(deleted).toEqual([agentId]);
  expect(manifests).toEqual([]);
  expect(existsSync(dirname(mine))).toBe(false);
  expect(existsSync(kept)).toBe(true);
  expect(existsSync(join(home, "agents", `.deleted-with-session-${agentId}`))).toBe(false);
});
