/**
 * The daemon's git-worktree workspaces (docs/protocol.md, docs/workspaces.md), passed through
 * typed: create one on a new branch (a fresh agent starts in it), attach a fresh agent to an
 * existing one, list, status, retire. A refused retire is a `ShardError` whose `data` is the
 * typed `WorkspaceRetireConflict` (`confirmation_required` names the disposition to retry with).
 */
import type { TypedCall } from "../../src/client/command-result.ts";
import type {
  WorkspaceAttachCommand,
  WorkspaceCreateCommand,
  WorkspaceLaunchResult,
  WorkspaceListCommand,
  WorkspaceRetireCommand,
} from "../../src/types/workspace.ts";
import type { WorkspaceDetail, WorkspaceSummary } from "../../src/types/workspace-projection.ts";
import type { Agent } from "./agent.ts";
import type { AttachOptions } from "./agent-options.ts";

type Params<C> = Omit<C, "type" | "id" | "version">;

export interface WorkspaceLaunch {
  workspace: WorkspaceDetail;
  session_id: string;
  /** The fresh agent in the worktree, attached. */
  agent: Agent;
}

export class DaemonWorkspaces {
  constructor(
    private readonly call: TypedCall,
    private readonly attach: (agentId: string, options: AttachOptions) => Promise<Agent>,
  ) {}

  async create(params: Params<WorkspaceCreateCommand>, attach: AttachOptions = {}): Promise<WorkspaceLaunch> {
    return this.launched(await this.call({ type: "workspace.create", ...params }), attach);
  }

  async attachAgent(
    params: Params<WorkspaceAttachCommand>,
    attach: AttachOptions = {},
  ): Promise<WorkspaceLaunch> {
    return this.launched(await this.call({ type: "workspace.attach", ...params }), attach);
  }

  async list(params: Params<WorkspaceListCommand> = {}): Promise<WorkspaceSummary[]> {
    return (await this.call({ type: "workspace.list", ...params })).workspaces;
  }

  async status(workspaceId: string): Promise<WorkspaceDetail> {
    return (await this.call({ type: "workspace.status", workspace_id: workspaceId })).workspace;
  }

  /** The branch's committed work against its merge base with the integration target. */
  async diff(workspaceId: string) {
    return this.call({ type: "workspace.diff", workspace_id: workspaceId });
  }

  async retire(
    params: Params<WorkspaceRetireCommand>,
  ): Promise<{ workspace: WorkspaceDetail; branch_deleted: boolean }> {
    return this.call({ type: "workspace.retire", ...params });
  }

  private async launched(launch: WorkspaceLaunchResult, attach: AttachOptions): Promise<WorkspaceLaunch> {
    const { agent_id, session_id, workspace } = launch;
    return { workspace, session_id, agent: await this.attach(agent_id, attach) };
  }
}
