/**
 * `restore_checkpoint` with `conversation: true` (docs/checkpoints.md): the files go back as
 * for any restore, then the session is forked just before the prompt of the checkpoint's turn
 * (the existing `session_op fork`, src/session/fork-session.ts) and the runtime continues in
 * that fork: the next prompt's provider request no longer holds that turn or any later one.
 *
 * Order: everything that can refuse (unknown id, a checkpoint with no turn, a prompt not in
 * this conversation, files changed by someone else) refuses before anything is written. The
 * fork file is written atomically; the runtime switches to it only once it is open.
 */

import { forkSessionBefore } from "../../session/fork-session.ts";
import { openSession } from "../../session/open-session.ts";
import { describeError } from "../../support/describe-error.ts";
import type { RestoreCheckpointResult } from "../../types/checkpoints.ts";
import { type Failure, failure } from "../../wire/errors.ts";
import type { AgentRuntime } from "../runtime.ts";

export async function restoreWithConversation(
  runtime: AgentRuntime,
  checkpointId: string,
  force: boolean,
): Promise<{ ok: true; data: RestoreCheckpointResult } | Failure> {
  const prompt = await runtime.checkpoints.promptOf(checkpointId);
  if (!prompt.ok) return prompt;
  const inConversation = runtime.session
    .entries()
    .some((e) => e.type === "message" && e.message.id === prompt.promptId);
  if (!inConversation)
    return failure(
      "NOT_FOUND",
      `the turn of checkpoint ${checkpointId} is not in this conversation (it was rewound); restore it without conversation`,
    );
  const files = await runtime.checkpoints.restore(checkpointId, force);
  if (!files.ok) return files;
  const undone = `the files were restored (undo with checkpoint ${files.data.undo_checkpoint_id})`;
  const forked = forkSessionBefore(runtime.session, prompt.promptId);
  if (!forked.ok)
    return failure(
      "INTERNAL_ERROR",
      `${undone}, but the conversation was not forked: ${forked.error.message}`,
    );
  const opened = openSession({ home: runtime.options.home, idOrPath: forked.path });
  if (!opened.ok)
    return failure("INTERNAL_ERROR", `${undone}, but the fork could not be opened: ${opened.error.message}`);
  try {
    runtime.checkpoints.moveTo(forked.data.session_id);
  } catch (err) {
    opened.store.close();
    return failure(
      "INTERNAL_ERROR",
      `${undone}, but its checkpoints could not be copied to the fork: ${describeError(err)}`,
    );
  }
  runtime.switchSession(opened.store);
  return { ok: true, data: { ...files.data, conversation: forked.data } };
}
