/**
 * `response.data` checked against the result schema of its command (src/types) before the
 * SDK hands it out typed: a server that answers with the wrong shape is an INTERNAL_ERROR
 * naming the command, never a value of the wrong type.
 */
import type { TSchema } from "@sinclair/typebox";
import {
  type ListModelsResult,
  ListModelsResultSchema,
  type ListModesResult,
  ListModesResultSchema,
  type SetModelResult,
  SetModelResultSchema,
  type SetModeResult,
  SetModeResultSchema,
} from "../../src/types/agent-results.ts";
import {
  type AgentAttachResult,
  AgentAttachResultSchema,
  type AgentCreateResult,
  AgentCreateResultSchema,
  type AgentListResult,
  AgentListResultSchema,
  type AgentTerminateResult,
  AgentTerminateResultSchema,
} from "../../src/types/orchestrator.ts";
import {
  type SessionActivateResult,
  SessionActivateResultSchema,
  type SessionListResult,
  SessionListResultSchema,
} from "../../src/types/session-first.ts";
import {
  type CompactResult,
  CompactResultSchema,
  type ForkResult,
  ForkResultSchema,
} from "../../src/types/session-op.ts";
import {
  type SubagentCreateResult,
  SubagentCreateResultSchema,
  type SubagentRelaunchResult,
  SubagentRelaunchResultSchema,
  type SubagentStatusResult,
  SubagentStatusResultSchema,
  type SubagentSteerResult,
  SubagentSteerResultSchema,
  type SubagentStopResult,
  SubagentStopResultSchema,
  type SubagentWaitResult,
  SubagentWaitResultSchema,
} from "../../src/types/subagent.ts";
import {
  type WorkspaceDiffResult,
  WorkspaceDiffResultSchema,
  type WorkspaceLaunchResult,
  WorkspaceLaunchResultSchema,
  type WorkspaceListResult,
  WorkspaceListResultSchema,
  type WorkspaceRetireResult,
  WorkspaceRetireResultSchema,
  type WorkspaceStatusResult,
  WorkspaceStatusResultSchema,
} from "../../src/types/workspace.ts";
import { schemaGuard } from "../../src/wire/validate.ts";
import { ShardError } from "./errors.ts";

export interface ResultTypes {
  set_mode: SetModeResult;
  list_modes: ListModesResult;
  set_model: SetModelResult;
  list_models: ListModelsResult;
  "agent.list": AgentListResult;
  "agent.create": AgentCreateResult;
  "agent.attach": AgentAttachResult;
  "agent.terminate": AgentTerminateResult;
  "session.list": SessionListResult;
  "session.activate": SessionActivateResult;
  compact: CompactResult;
  fork: ForkResult;
  "workspace.launch": WorkspaceLaunchResult;
  "workspace.list": WorkspaceListResult;
  "workspace.status": WorkspaceStatusResult;
  "workspace.retire": WorkspaceRetireResult;
  "workspace.diff": WorkspaceDiffResult;
  "subagent.create": SubagentCreateResult;
  "subagent.wait": SubagentWaitResult;
  "subagent.steer": SubagentSteerResult;
  "subagent.relaunch": SubagentRelaunchResult;
  "subagent.status": SubagentStatusResult;
  "subagent.stop": SubagentStopResult;
}

type Guards = { [K in keyof ResultTypes]: (data: unknown) => ResultTypes[K] | undefined };

const guard = <S extends TSchema>(schema: S) => schemaGuard(schema);

const GUARDS: Guards = {
  set_mode: guard(SetModeResultSchema),
  list_modes: guard(ListModesResultSchema),
  set_model: guard(SetModelResultSchema),
  list_models: guard(ListModelsResultSchema),
  "agent.list": guard(AgentListResultSchema),
  "agent.create": guard(AgentCreateResultSchema),
  "agent.attach": guard(AgentAttachResultSchema),
  "agent.terminate": guard(AgentTerminateResultSchema),
  "session.list": guard(SessionListResultSchema),
  "session.activate": guard(SessionActivateResultSchema),
  compact: guard(CompactResultSchema),
  fork: guard(ForkResultSchema),
  "workspace.launch": guard(WorkspaceLaunchResultSchema),
  "workspace.list": guard(WorkspaceListResultSchema),
  "workspace.status": guard(WorkspaceStatusResultSchema),
  "workspace.retire": guard(WorkspaceRetireResultSchema),
  "workspace.diff": guard(WorkspaceDiffResultSchema),
  "subagent.create": guard(SubagentCreateResultSchema),
  "subagent.wait": guard(SubagentWaitResultSchema),
  "subagent.steer": guard(SubagentSteerResultSchema),
  "subagent.relaunch": guard(SubagentRelaunchResultSchema),
  "subagent.status": guard(SubagentStatusResultSchema),
  "subagent.stop": guard(SubagentStopResultSchema),
};

export function checkedResult<K extends keyof ResultTypes>(kind: K, data: unknown): ResultTypes[K] {
  const checked = GUARDS[kind](data);
  if (checked === undefined) {
    throw new ShardError(
      "INTERNAL_ERROR",
      `${kind}: the server's answer does not match the protocol's result schema; check that the SDK and server versions match`,
    );
  }
  return checked;
}
