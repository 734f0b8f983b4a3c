/**
 * Undo to here: `restore_checkpoint`, and what its answer means for the marker. A refusal that
 * names files (`data.conflicts`: changed by the person since the agent's last turn) asks before
 * they are overwritten; any other refusal (a turn running, an id no longer kept) is shown as the
 * daemon's own message.
 */
import { restoreConflicts } from "../../../../src/client/restore-conflicts.ts";
import { RequestError } from "../../connection/daemon-connection.ts";
import type { ControlRoom } from "../../state/control-room.ts";
import { type CheckpointList, noteRestore, type UndoState } from "./checkpoint-list.ts";

export async function undoToCheckpoint(
  room: ControlRoom,
  list: CheckpointList,
  agentId: string,
  checkpointId: string,
  force: boolean,
): Promise<void> {
  list.setUndoState(checkpointId, { kind: "sending", force });
  list.setUndoState(checkpointId, await restore(room, agentId, checkpointId, force));
}

async function restore(
  room: ControlRoom,
  agentId: string,
  checkpointId: string,
  force: boolean,
): Promise<UndoState> {
  try {
    const { restored } = await room.connection.call({
      type: "restore_checkpoint",
      agent_id: agentId,
      checkpoint_id: checkpointId,
      ...(force ? { force } : {}),
    });
    noteRestore();
    return { kind: "done", files: restored };
  } catch (err) {
    if (err instanceof RequestError) {
      const conflicts = err.code === "CONFLICT" ? restoreConflicts(err.data) : undefined;
      if (conflicts !== undefined && !force) return { kind: "conflict", files: conflicts };
      return { kind: "failed", message: err.message };
    }
    return { kind: "failed", message: String(err) };
  }
}
