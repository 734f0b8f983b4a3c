/**
 * The daemon-private, durable record of one workspace (a git worktree on its own branch) and
 * its transport-safe projections. The record holds paths; the projections expose only the
 * worktree's cwd and the main checkout root (`repository_cwd`), never a git directory.
 */
import { type Static, Type } from "@sinclair/typebox";
import type { WorkspaceDetail, WorkspaceSummary } from "../../types/workspace-projection.ts";
import { WorkspaceDetailSchema } from "../../types/workspace-projection.ts";

export const WORKSPACE_RECORD_VERSION = 1;

export const WorkspaceRecordSchema = Type.Object({
  version: Type.Literal(WORKSPACE_RECORD_VERSION),
  workspace_id: Type.String({ minLength: 1 }),
  label: Type.String(),
  repository_cwd: Type.String({ minLength: 1 }),
  worktree_path: Type.String({ minLength: 1 }),
  /** The placement the repository and worktree are on (their paths are that side's); absent is local. */
  placement: Type.Optional(Type.String({ minLength: 1 })),
  branch: Type.String({ minLength: 1 }),
  base_ref: Type.String({ minLength: 1 }),
  base_commit: Type.String({ minLength: 1 }),
  integration_target: Type.String({ minLength: 1 }),
  /** Hashes of the repository's common git dir and of the worktree's own git dir. */
  fingerprints: Type.Object({ repository: Type.String(), worktree: Type.String() }),
  created_at: Type.Number(),
  updated_at: Type.Number(),
  // The same shapes the detail projection shows.
  bindings: WorkspaceDetailSchema.properties.bindings,
  tombstone: WorkspaceDetailSchema.properties.tombstone,
});
export type WorkspaceRecord = Static<typeof WorkspaceRecordSchema>;

export function summaryOf(record: WorkspaceRecord): WorkspaceSummary {
  const sessions = new Set(record.bindings.map((b) => b.session_id));
  const agents = new Set(record.bindings.map((b) => b.agent_id));
  return {
    workspace_id: record.workspace_id,
    label: record.label,
    cwd: record.worktree_path,
    repository_cwd: record.repository_cwd,
    ...(record.placement !== undefined ? { placement: record.placement } : {}),
    ownership: "managed",
    lifecycle: record.tombstone === undefined ? "active" : "retired",
    fingerprints: record.fingerprints,
    branch: record.branch,
    base_ref: record.base_ref,
    integration_target: record.integration_target,
    created_at: record.created_at,
    updated_at: record.updated_at,
    ...(record.tombstone !== undefined ? { retired_at: record.tombstone.retired_at } : {}),
    counts: { agents: agents.size, sessions: sessions.size },
  };
}

export function detailOf(record: WorkspaceRecord, conflict: string | undefined): WorkspaceDetail {
  return {
    ...summaryOf(record),
    bindings: record.bindings.map((b) => ({ ...b })),
    ...(record.tombstone !== undefined ? { tombstone: { ...record.tombstone } } : {}),
    ...(conflict !== undefined ? { conflict: { reason: conflict } } : {}),
  };
}
