/**
 * What an `agent.delete` with `session: true` removes of a placed agent's session on the
 * daemon's side: the daemon's copy (session-mirror.ts) of that session and the copies of its
 * forks, at any depth, as a local delete takes the session's directory with the forks nested in
 * it. The copies lie side by side under `$SHARD_HOME/placements/<name>/sessions/`, so a fork is
 * known by its header's `fork.source_session_id`. Idempotent: a crash between the delete's
 * intent and its end runs it again.
 */
import { closeSync, openSync, readdirSync, readSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { PLACEMENT_NAME } from "../../placements/placement-config.ts";
import { SESSION_ID } from "../../placements/session-transfer.ts";
import { checkHeader } from "../../session/session-line-checks.ts";
import { mirrorPath } from "./session-mirror.ts";

/** A header line is short; a copy whose first line is longer is not read as a fork. */
const HEADER_BYTES = 64 * 1024;

export function removeMirroredSession(home: string, placement: string, sessionId: string): void {
  if (!SESSION_ID.test(sessionId) || !PLACEMENT_NAME.test(placement)) return;
  const root = dirname(dirname(mirrorPath(home, placement, sessionId)));
  let names: string[];
  try {
    names = readdirSync(root).filter((name) => SESSION_ID.test(name));
  } catch {
    return; // no copies of this placement
  }
  const sourceOf = new Map(names.map((name) => [name, forkSource(mirrorPath(home, placement, name))]));
  const doomed = new Set([sessionId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [name, source] of sourceOf) {
      if (source !== undefined && doomed.has(source) && !doomed.has(name)) {
        doomed.add(name);
        grew = true;
      }
    }
  }
  for (const name of doomed) rmSync(join(root, name), { recursive: true, force: true });
}

/** The session a copy was forked from, from its header; undefined for a top-level one or an unreadable copy. */
function forkSource(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const read = readSync(fd, buffer, 0, HEADER_BYTES, 0);
    const text = buffer.subarray(0, read).toString("utf8");
    const end = text.indexOf("\n");
    if (end < 0) return undefined;
    const checked = checkHeader(JSON.parse(text.slice(0, end)));
    return checked.ok ? checked.value.fork?.source_session_id : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
