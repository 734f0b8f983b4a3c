/**
 * Workspace commands, results and lifecycle events (docs/protocol.md §10.3, §11.2). Daemon-level,
 * no routing `agent_id`; `version?: 1` is accepted for forward-compatible clients.
 */
import { type Static, Type } from "@sinclair/typebox";
import { eventSeq, payloadAgentId, requiredCommandId } from "./envelope.ts";
import { HunkSchema } from "./render.ts";
import {
  BranchDispositionSchema,
  WorkspaceDetailSchema,
  WorkspaceSummarySchema,
} from "./workspace-projection.ts";

const version = Type.Optional(Type.Literal(1));
const workspaceId = Type.String({ minLength: 1 });
/** Settings of the fresh agent that create/attach launch. */
const launchFields = {
  title: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  model: Type.Optional(Type.String()),
  provider: Type.Optional(Type.String()),
  mode: Type.Optional(Type.String()),
};

export const WorkspaceCreateCommandSchema = Type.Object(
  {
    type: Type.Literal("workspace.create"),
    id: requiredCommandId,
    version,
    cwd: Type.String({ minLength: 1 }),
    label: Type.Optional(Type.String()),
    branch: Type.Optional(Type.String({ minLength: 1 })),
    base_ref: Type.Optional(Type.String({ minLength: 1 })),
    integration_target: Type.Optional(Type.String({ minLength: 1 })),
    /**
     * Our addition (docs/protocol-additions.md §28): the placement the worktree is made on and
     * its agents run on (docs/placements.md); default `local`. On another placement `cwd` is an
     * absolute path there, and git runs there.
     */
    placement: Type.Optional(Type.String({ minLength: 1 })),
    ...launchFields,
  },
  { $id: "WorkspaceCreateCommand" },
);
export type WorkspaceCreateCommand = Static<typeof WorkspaceCreateCommandSchema>;

export const WorkspaceAttachCommandSchema = Type.Object(
  {
    type: Type.Literal("workspace.attach"),
    id: requiredCommandId,
    version,
    workspace_id: workspaceId,
    ...launchFields,
  },
  { $id: "WorkspaceAttachCommand" },
);
export type WorkspaceAttachCommand = Static<typeof WorkspaceAttachCommandSchema>;

export const WorkspaceListCommandSchema = Type.Object(
  {
    type: Type.Literal("workspace.list"),
    id: requiredCommandId,
    version,
    cwd: Type.Optional(Type.String({ minLength: 1 })),
    include_retired: Type.Optional(Type.Boolean()),
  },
  { $id: "WorkspaceListCommand" },
);
export type WorkspaceListCommand = Static<typeof WorkspaceListCommandSchema>;

export const WorkspaceStatusCommandSchema = Type.Object(
  { type: Type.Literal("workspace.status"), id: requiredCommandId, version, workspace_id: workspaceId },
  { $id: "WorkspaceStatusCommand" },
);
export type WorkspaceStatusCommand = Static<typeof WorkspaceStatusCommandSchema>;

export const WorkspaceRetireCommandSchema = Type.Object(
  {
    type: Type.Literal("workspace.retire"),
    id: requiredCommandId,
    version,
    workspace_id: workspaceId,
    branch_disposition: Type.Optional(BranchDispositionSchema),
  },
  { $id: "WorkspaceRetireCommand" },
);
export type WorkspaceRetireCommand = Static<typeof WorkspaceRetireCommandSchema>;

/** Additive (docs/protocol-additions.md §13): the branch's committed work against its base, for review. */
export const WorkspaceDiffCommandSchema = Type.Object(
  { type: Type.Literal("workspace.diff"), id: requiredCommandId, version, workspace_id: workspaceId },
  { $id: "WorkspaceDiffCommand" },
);
export type WorkspaceDiffCommand = Static<typeof WorkspaceDiffCommandSchema>;

export const WorkspaceDiffFileSchema = Type.Object({
  /** Relative to the worktree; the new path of a rename. */
  path: Type.String(),
  old_path: Type.Optional(Type.String()),
  status: Type.Union([
    Type.Literal("added"),
    Type.Literal("modified"),
    Type.Literal("deleted"),
    Type.Literal("renamed"),
  ]),
  additions: Type.Integer({ minimum: 0 }),
  deletions: Type.Integer({ minimum: 0 }),
  /** Empty for a binary file. */
  hunks: Type.Array(HunkSchema),
  binary: Type.Optional(Type.Boolean()),
});
export type WorkspaceDiffFile = Static<typeof WorkspaceDiffFileSchema>;

export const WorkspaceDiffResultSchema = Type.Object(
  {
    workspace_id: workspaceId,
    branch: Type.String(),
    integration_target: Type.String(),
    /** The commit the branch is compared against: its merge base with the integration target. */
    merge_base: Type.String(),
    files: Type.Array(WorkspaceDiffFileSchema),
    /** The diff was larger than the daemon returns; `files` is its beginning. */
    truncated: Type.Boolean(),
  },
  { $id: "WorkspaceDiffResult" },
);
export type WorkspaceDiffResult = Static<typeof WorkspaceDiffResultSchema>;

/** Data of `workspace.create` and `workspace.attach`: the fresh agent and session. */
export const WorkspaceLaunchResultSchema = Type.Object(
  { agent_id: payloadAgentId, session_id: Type.String({ minLength: 1 }), workspace: WorkspaceDetailSchema },
  { $id: "WorkspaceLaunchResult" },
);
export type WorkspaceLaunchResult = Static<typeof WorkspaceLaunchResultSchema>;

const workspaceLaunchFields = WorkspaceLaunchResultSchema.properties;
export const WorkspaceCreateResultSchema = Type.Object(workspaceLaunchFields, {
  $id: "WorkspaceCreateResult",
});
export type WorkspaceCreateResult = Static<typeof WorkspaceCreateResultSchema>;
export const WorkspaceAttachResultSchema = Type.Object(workspaceLaunchFields, {
  $id: "WorkspaceAttachResult",
});
export type WorkspaceAttachResult = Static<typeof WorkspaceAttachResultSchema>;

export const WorkspaceListResultSchema = Type.Object(
  { workspaces: Type.Array(WorkspaceSummarySchema) },
  { $id: "WorkspaceListResult" },
);
export type WorkspaceListResult = Static<typeof WorkspaceListResultSchema>;

export const WorkspaceStatusResultSchema = Type.Object(
  { workspace: WorkspaceDetailSchema },
  { $id: "WorkspaceStatusResult" },
);
export type WorkspaceStatusResult = Static<typeof WorkspaceStatusResultSchema>;

export const WorkspaceRetireResultSchema = Type.Object(
  { workspace: WorkspaceDetailSchema, branch_deleted: Type.Boolean() },
  { $id: "WorkspaceRetireResult" },
);
export type WorkspaceRetireResult = Static<typeof WorkspaceRetireResultSchema>;

export const WorkspaceCreatedEventSchema = Type.Object(
  { type: Type.Literal("workspace_created"), seq: eventSeq, workspace: WorkspaceSummarySchema },
  { $id: "WorkspaceCreatedEvent" },
);
export type WorkspaceCreatedEvent = Static<typeof WorkspaceCreatedEventSchema>;

export const WorkspaceAttachedEventSchema = Type.Object(
  {
    type: Type.Literal("workspace_attached"),
    seq: eventSeq,
    workspace: WorkspaceSummarySchema,
    agent_id: payloadAgentId,
    session_id: Type.String({ minLength: 1 }),
  },
  { $id: "WorkspaceAttachedEvent" },
);
export type WorkspaceAttachedEvent = Static<typeof WorkspaceAttachedEventSchema>;

export const WorkspaceRetiredEventSchema = Type.Object(
  { type: Type.Literal("workspace_retired"), seq: eventSeq, workspace: WorkspaceSummarySchema },
  { $id: "WorkspaceRetiredEvent" },
);
export type WorkspaceRetiredEvent = Static<typeof WorkspaceRetiredEventSchema>;

export const WorkspaceConflictEventSchema = Type.Object(
  {
    type: Type.Literal("workspace_conflict"),
    seq: eventSeq,
    workspace: WorkspaceSummarySchema,
    /** Sanitized: no filesystem paths. */
    reason: Type.String(),
  },
  { $id: "WorkspaceConflictEvent" },
);
export type WorkspaceConflictEvent = Static<typeof WorkspaceConflictEventSchema>;
