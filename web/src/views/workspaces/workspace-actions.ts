/**
 * The daemon's workspace commands from the page (docs/protocol.md §10.3), each answer checked
 * against its result schema by the connection's typed call. A refused retire comes back as its
 * typed conflict, so the panel can offer the one retry that `confirmation_required` names.
 */
import { Value } from "@sinclair/typebox/value";
import {
  type WorkspaceRetireConflict,
  WorkspaceRetireConflictSchema,
  type WorkspaceSummary,
} from "../../../../src/types/workspace-projection.ts";
import { RequestError } from "../../connection/daemon-connection.ts";
import type { ControlRoom } from "../../state/control-room.ts";

export async function listWorkspaces(room: ControlRoom): Promise<WorkspaceSummary[]> {
  return (await room.connection.call({ type: "workspace.list" })).workspaces;
}

/** Creates a workspace and returns its fresh agent's id. */
export async function createWorkspace(room: ControlRoom, cwd: string, label: string): Promise<string> {
  const data = await room.connection.call({
    type: "workspace.create",
    cwd,
    ...(label !== "" ? { label } : {}),
  });
  return data.agent_id;
}

export type RetireOutcome =
  | { kind: "retired"; branchDeleted: boolean }
  | { kind: "refused"; refusal: WorkspaceRetireConflict };

export async function retireWorkspace(
  room: ControlRoom,
  workspaceId: string,
  disposition: "delete_if_merged" | "keep" | "delete_confirmed",
): Promise<RetireOutcome> {
  try {
    const data = await room.connection.call({
      type: "workspace.retire",
      workspace_id: workspaceId,
      branch_disposition: disposition,
    });
    return { kind: "retired", branchDeleted: data.branch_deleted };
  } catch (err) {
    // The refusal is the error's typed `data` (not a result): checked against its own schema.
    if (err instanceof RequestError && Value.Check(WorkspaceRetireConflictSchema, err.data)) {
      return { kind: "refused", refusal: err.data };
    }
    throw err;
  }
}

/** Workspaces grouped by the project they belong to, projects and workspaces in creation order. */
export function byRepository(workspaces: WorkspaceSummary[]): [string, WorkspaceSummary[]][] {
  const groups = new Map<string, WorkspaceSummary[]>();
  for (const ws of workspaces) {
    const key = ws.repository_cwd ?? ws.fingerprints.repository;
    groups.set(key, [...(groups.get(key) ?? []), ws]);
  }
  return [...groups.entries()];
}
