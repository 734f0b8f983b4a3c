/**
 * `list_checkpoints`, `checkpoint_diff` and `restore_checkpoint` (ours: docs/protocol-additions.md §21): the
 * checkpoints the runtime takes before each turn that may change files (docs/checkpoints.md),
 * and putting the files back as they were before one of those turns.
 */
import { type Static, Type } from "@sinclair/typebox";
import { optionalCommandId, routingAgentId } from "./envelope.ts";
import { WorkspaceDiffFileSchema } from "./workspace.ts";

export const ListCheckpointsCommandSchema = Type.Object(
  { type: Type.Literal("list_checkpoints"), id: optionalCommandId, agent_id: routingAgentId },
  { $id: "ListCheckpointsCommand" },
);
export type ListCheckpointsCommand = Static<typeof ListCheckpointsCommandSchema>;

export const CheckpointSummarySchema = Type.Object(
  {
    checkpoint_id: Type.String(),
    /** The turn it was taken before; absent for the checkpoint a restore takes first (its undo). */
    turn_id: Type.Optional(Type.String()),
    /** Milliseconds since the epoch. */
    created_at: Type.Integer({ minimum: 0 }),
    /** Files the turn changed (for a restore's undo checkpoint: files the restore changed). */
    files_changed: Type.Integer({ minimum: 0 }),
    /**
     * The newest message of the conversation when the turn ended: a client draws the turn's
     * marker after it. Absent while the turn runs and for a restore's undo checkpoint.
     */
    after_message_id: Type.Optional(Type.String({ minLength: 1 })),
  },
  { $id: "CheckpointSummary" },
);
export type CheckpointSummary = Static<typeof CheckpointSummarySchema>;

/** Newest first. */
export const ListCheckpointsResultSchema = Type.Object(
  { checkpoints: Type.Array(CheckpointSummarySchema) },
  { $id: "ListCheckpointsResult" },
);
export type ListCheckpointsResult = Static<typeof ListCheckpointsResultSchema>;

/** What the checkpoint's turn changed (for a restore's undo checkpoint: what the restore changed). */
export const CheckpointDiffCommandSchema = Type.Object(
  {
    type: Type.Literal("checkpoint_diff"),
    id: optionalCommandId,
    agent_id: routingAgentId,
    checkpoint_id: Type.String({ minLength: 1 }),
  },
  { $id: "CheckpointDiffCommand" },
);
export type CheckpointDiffCommand = Static<typeof CheckpointDiffCommandSchema>;

export const CheckpointDiffResultSchema = Type.Object(
  {
    checkpoint_id: Type.String(),
    /** Paths relative to the agent's cwd; a rename is a deletion and an addition. */
    files: Type.Array(WorkspaceDiffFileSchema),
    /** Larger than the runtime returns: `files` is its beginning. */
    truncated: Type.Boolean(),
  },
  { $id: "CheckpointDiffResult" },
);
export type CheckpointDiffResult = Static<typeof CheckpointDiffResultSchema>;

/**
 * Puts the files back as they were before the checkpoint's turn. Files changed by someone else
 * since are a `CONFLICT` (listed in `data.conflicts`) unless `force` is true. With
 * `conversation`, the session is also forked just before that turn's prompt and the agent
 * continues in the fork.
 */
export const RestoreCheckpointCommandSchema = Type.Object(
  {
    type: Type.Literal("restore_checkpoint"),
    id: optionalCommandId,
    agent_id: routingAgentId,
    checkpoint_id: Type.String({ minLength: 1 }),
    force: Type.Optional(Type.Boolean()),
    /** Also rewind the conversation: fork the session before the turn and continue there. */
    conversation: Type.Optional(Type.Boolean()),
  },
  { $id: "RestoreCheckpointCommand" },
);
export type RestoreCheckpointCommand = Static<typeof RestoreCheckpointCommandSchema>;

export const RestoreCheckpointResultSchema = Type.Object(
  {
    /** The paths written or deleted, relative to the agent's cwd. */
    restored: Type.Array(Type.String()),
    /** The checkpoint of the files just before this restore: restoring it undoes this one. */
    undo_checkpoint_id: Type.String(),
    /**
     * With `conversation: true`: the fork the agent now writes (as `session_op fork` answers it).
     * Clients also get a fresh `sync` with the fork's `session_id` and live window.
     */
    conversation: Type.Optional(
      Type.Object({ fork_id: Type.String(), session_id: Type.String(), head_entry_id: Type.String() }),
    ),
  },
  { $id: "RestoreCheckpointResult" },
);
export type RestoreCheckpointResult = Static<typeof RestoreCheckpointResultSchema>;
