/**
 * The checkpoints of one shadow repository. Each is a commit of the whole work tree with no
 * parent, named by a ref `refs/checkpoints/<sequence>`: ids never change when older ones are
 * pruned (no history to rewrite), and the refs' order is the checkpoints' order. What the list
 * shows (label, time, files changed) is in the commit message, so listing is one git call.
 */
import type { GitRunner } from "../git/git.ts";
import { gitComplaint } from "../git/git.ts";
import { dropAfterTree } from "./after-tree.ts";
import type { Checkpoint } from "./checkpoint.ts";
import { IDENTITY } from "./shadow-repository.ts";

const PREFIX = "refs/checkpoints/";
/** Zero-padded, so that the refs sort as numbers. */
const SEQUENCE_DIGITS = 12;

export interface LoggedCheckpoint extends Checkpoint {
  ref: string;
  tree: string;
}

/** Newest first. */
export async function listCheckpoints(run: GitRunner): Promise<LoggedCheckpoint[]> {
  const listed = await run([
    "for-each-ref",
    "--sort=-refname",
    "--format=%(objectname)%00%(tree)%00%(refname)%00%(contents:body)%00%(contents:subject)%00%01",
    PREFIX,
  ]);
  if (!listed.ok) throw new Error(`git for-each-ref failed: ${gitComplaint(listed)}`);
  const checkpoints: LoggedCheckpoint[] = [];
  for (const record of listed.stdout.split("\0\u0001")) {
    const [id, tree, ref, body, label] = record.replace(/^\n/, "").split("\0");
    if (id === undefined || tree === undefined || ref === undefined || body === undefined) continue;
    checkpoints.push({
      checkpoint_id: id,
      tree,
      ref,
      label: label ?? "",
      created_at: Number(/^Created-At: (\d+)$/m.exec(body)?.[1] ?? 0),
      files_changed: Number(/^Files-Changed: (\d+)$/m.exec(body)?.[1] ?? 0),
    });
  }
  return checkpoints;
}

/** Records `tree` as the newest checkpoint. */
export async function recordCheckpoint(
  run: GitRunner,
  tree: string,
  label: string,
  filesChanged: number,
  newest: LoggedCheckpoint | undefined,
): Promise<LoggedCheckpoint> {
  const createdAt = Date.now();
  // One line: a label is a subject, never a body that could fake the fields below.
  const subject = label.replace(/[\r\n\0]+/g, " ").trim() || "checkpoint";
  const body = `Created-At: ${createdAt}\nFiles-Changed: ${filesChanged}`;
  const commit = await run(["commit-tree", "--no-gpg-sign", tree, "-m", subject, "-m", body], {
    env: IDENTITY,
  });
  if (!commit.ok) throw new Error(`git commit-tree failed: ${gitComplaint(commit)}`);
  const id = commit.stdout.trim();
  const sequence = newest === undefined ? 1 : Number(newest.ref.slice(PREFIX.length)) + 1;
  const ref = `${PREFIX}${String(sequence).padStart(SEQUENCE_DIGITS, "0")}`;
  // The empty old value: never overwrite a checkpoint someone else recorded in between.
  const anchored = await run(["update-ref", ref, id, ""]);
  if (!anchored.ok) throw new Error(`git update-ref failed: ${gitComplaint(anchored)}`);
  return { checkpoint_id: id, tree, ref, label: subject, created_at: createdAt, files_changed: filesChanged };
}

/** Forgets a checkpoint and what its turn left; their objects go at the next prune. */
export async function dropCheckpoint(run: GitRunner, checkpoint: LoggedCheckpoint): Promise<void> {
  const dropped = await run(["update-ref", "-d", checkpoint.ref, checkpoint.checkpoint_id]);
  if (!dropped.ok) throw new Error(`git update-ref -d failed: ${gitComplaint(dropped)}`);
  await dropAfterTree(run, checkpoint.checkpoint_id);
}
