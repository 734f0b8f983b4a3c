/**
 * An agent's baseline: its working tree when its first runtime started, kept as a commit in
 * the agent's own repository so the Changes view can diff against it for as long as the agent
 * lives. The commit is anchored by `refs/shard/baselines/<agent_id>` (git's gc keeps what a
 * ref names); the manifest records it first, so a daemon killed in between leaves no ref
 * nobody knows of, and the next look re-anchors it.
 */

import type { GitRunner } from "../../git/git.ts";
import { describeError } from "../../support/describe-error.ts";
import type { AgentBaseline } from "../registry/manifest.ts";
import type { ChangesHost } from "./changes-host.ts";

/** Who the baseline commits are by: the user's identity may be unset, and it is not theirs. */
const IDENTITY = {
  GIT_AUTHOR_NAME: "Shard",
  GIT_AUTHOR_EMAIL: "shard@localhost",
  GIT_COMMITTER_NAME: "Shard",
  GIT_COMMITTER_EMAIL: "shard@localhost",
};

export interface RecordedBaseline {
  baseline: AgentBaseline;
  /** Makes the baseline commit reachable; run once the manifest holds it. */
  anchor?: () => Promise<void>;
}

export function baselineRef(agentId: string): string {
  return `refs/shard/baselines/${agentId}`;
}

/**
 * The baseline of an agent about to start in `cwd` (on `host`: this machine or the agent's
 * placement), or why there is none (logged, retried at the next start).
 */
export async function recordBaseline(
  agentId: string,
  cwd: string,
  host: ChangesHost,
  log: (line: string) => void,
): Promise<RecordedBaseline | undefined> {
  try {
    const snapshot = await host.snapshot(cwd);
    const recordedAt = Date.now();
    if (!snapshot.ok && snapshot.notGit) return { baseline: { kind: "not_git", recorded_at: recordedAt } };
    if (!snapshot.ok) {
      log(`agent ${agentId}: no baseline for its Changes view: ${snapshot.message}`);
      return undefined;
    }
    const parent = snapshot.head !== undefined ? ["-p", snapshot.head] : [];
    const commit = await snapshot.run(
      [
        "commit-tree",
        "--no-gpg-sign",
        snapshot.tree,
        ...parent,
        "-m",
        `shard: working tree when agent ${agentId} started`,
      ],
      { env: IDENTITY },
    );
    if (!commit.ok) {
      log(
        `agent ${agentId}: no baseline for its Changes view: git commit-tree failed: ${commit.stderr.trim()}`,
      );
      return undefined;
    }
    const sha = commit.stdout.trim();
    return {
      baseline: { kind: "git", commit: sha, recorded_at: recordedAt },
      anchor: () => writeRef(snapshot.run, agentId, sha, log),
    };
  } catch (err) {
    log(`agent ${agentId}: no baseline for its Changes view: ${describeError(err)}`);
    return undefined;
  }
}

/** Points the agent's baseline ref at `commit` unless it already does. */
export async function anchorBaseline(
  run: GitRunner,
  agentId: string,
  commit: string,
  log: (line: string) => void,
): Promise<void> {
  const current = await run(["rev-parse", "--verify", "--quiet", baselineRef(agentId)]);
  if (current.ok && current.stdout.trim() === commit) return;
  await writeRef(run, agentId, commit, log);
}

async function writeRef(run: GitRunner, agentId: string, commit: string, log: (line: string) => void) {
  const updated = await run(["update-ref", "-m", "shard baseline", baselineRef(agentId), commit]);
  if (!updated.ok) log(`agent ${agentId}: could not anchor its baseline ref: ${updated.stderr.trim()}`);
}
