/**
 * Transport-safe workspace projections (docs/protocol.md §10.3; field set pinned by us, see
 * docs/protocol-additions.md). Opaque ids only: common-dir and git-dir paths never appear;
 * `repository_cwd` (the project's main-checkout root) is the one repository path exposed.
 */
import { type Static, Type } from "@sinclair/typebox";

export const BranchDispositionSchema = Type.Union(
  [Type.Literal("delete_if_merged"), Type.Literal("keep"), Type.Literal("delete_confirmed")],
  { $id: "BranchDisposition" },
);
export type BranchDisposition = Static<typeof BranchDispositionSchema>;

export const WorkspaceLifecycleSchema = Type.Union([Type.Literal("active"), Type.Literal("retired")], {
  $id: "WorkspaceLifecycle",
});
export type WorkspaceLifecycle = Static<typeof WorkspaceLifecycleSchema>;

export const WorkspaceSummarySchema = Type.Object(
  {
    workspace_id: Type.String({ minLength: 1 }),
    label: Type.String(),
    /** The worktree's working directory (where its agents run). */
    cwd: Type.String(),
    /** Additive: main-checkout root of the project this worktree belongs to. */
    repository_cwd: Type.Optional(Type.String()),
    /** Our addition (docs/protocol-additions.md §28): the placement the worktree is on; absent is `local`. */
    placement: Type.Optional(Type.String({ minLength: 1 })),
    /** Creation is managed-only in v1. */
    ownership: Type.Literal("managed"),
    lifecycle: WorkspaceLifecycleSchema,
    /** Opaque hashes that group worktrees of one repository without exposing its paths. */
    fingerprints: Type.Object({ repository: Type.String(), worktree: Type.String() }),
    branch: Type.String(),
    base_ref: Type.String(),
    integration_target: Type.String(),
    /** Epoch milliseconds. */
    created_at: Type.Number(),
    updated_at: Type.Number(),
    retired_at: Type.Optional(Type.Number()),
    counts: Type.Object({ agents: Type.Integer({ minimum: 0 }), sessions: Type.Integer({ minimum: 0 }) }),
  },
  { $id: "WorkspaceSummary" },
);
export type WorkspaceSummary = Static<typeof WorkspaceSummarySchema>;

export const WorkspaceDetailSchema = Type.Object(
  {
    ...WorkspaceSummarySchema.properties,
    /** Agents and sessions bound to this workspace; ids may be redacted by the daemon. */
    bindings: Type.Array(
      Type.Object({ agent_id: Type.String(), session_id: Type.String(), bound_at: Type.Number() }),
    ),
    /** Present once retired. */
    tombstone: Type.Optional(
      Type.Object({
        retired_at: Type.Number(),
        branch_disposition: BranchDispositionSchema,
        branch_deleted: Type.Boolean(),
      }),
    ),
    /** Present while the daemon sees the worktree in conflict with its record; sanitized. */
    conflict: Type.Optional(Type.Object({ reason: Type.String() })),
  },
  { $id: "WorkspaceDetail" },
);
export type WorkspaceDetail = Static<typeof WorkspaceDetailSchema>;

/**
 * `error.data` of a CONFLICT answer to `workspace.retire`: either an unproven branch
 * deletion that needs an explicit `delete_confirmed` retry, or a typed refusal.
 */
export const WorkspaceRetireConflictSchema = Type.Union(
  [
    Type.Object({
      kind: Type.Literal("confirmation_required"),
      workspace_id: Type.String(),
      reason: Type.String(),
      confirmation_disposition: Type.Literal("delete_confirmed"),
    }),
    Type.Object({
      kind: Type.Union([
        Type.Literal("live"),
        Type.Literal("busy"),
        Type.Literal("dirty"),
        Type.Literal("missing_authority"),
        Type.Literal("unsafe"),
      ]),
      workspace_id: Type.String(),
      reason: Type.String(),
    }),
  ],
  { $id: "WorkspaceRetireConflict" },
);
export type WorkspaceRetireConflict = Static<typeof WorkspaceRetireConflictSchema>;
