/**
 * Where a session's checkpoints live: one shadow repository per session, so deleting a session
 * (`agent.delete` with `session: true`) can take its checkpoints with it.
 */
import { join } from "node:path";

export function checkpointsDir(home: string, sessionId: string): string {
  return join(home, "checkpoints", sessionId);
}
