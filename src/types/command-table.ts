/**
 * Every command of the wire protocol, declared once: the schema of the command, the schema of
 * its successful `response.data`, and the part of Shard that answers it. The inbound validator,
 * the daemon's dispatch, the SDK's and the web's typed calls, the JSON Schema export and
 * docs/protocol.md are all derived from this table: adding a command is one entry here plus
 * one handler for its owner.
 *
 * A command whose result schema is an empty object answers without `data`.
 */

import type { Static, TObject, TSchema } from "@sinclair/typebox";
import { AgentChangesCommandSchema, AgentChangesResultSchema } from "./agent-changes.ts";
import {
  AbortCommandSchema,
  ListModelsCommandSchema,
  ListModesCommandSchema,
  ListReasoningLevelsCommandSchema,
  PromptCommandSchema,
  SetModeCommandSchema,
  SetModelCommandSchema,
  SetReasoningLevelCommandSchema,
  SetSandboxCommandSchema,
  SteerCommandSchema,
} from "./agent-commands.ts";
import {
  AgentDeleteCommandSchema,
  AgentDeleteResultSchema,
  AgentRenameCommandSchema,
  AgentRenameResultSchema,
} from "./agent-manage.ts";
import {
  AbortResultSchema,
  ListModelsResultSchema,
  ListModesResultSchema,
  ListReasoningLevelsResultSchema,
  PermissionResponseResultSchema,
  PromptResultSchema,
  SetModelResultSchema,
  SetModeResultSchema,
  SetReasoningLevelResultSchema,
  SetSandboxResultSchema,
  SteerResultSchema,
  UiResponseResultSchema,
} from "./agent-results.ts";
import {
  AuthEnrollCommandSchema,
  AuthEnrollResultSchema,
  AuthListCommandSchema,
  AuthListResultSchema,
  AuthRevokeCommandSchema,
  AuthRevokeResultSchema,
} from "./auth.ts";
import {
  BudgetLimitsCommandSchema,
  BudgetLimitsResultSchema,
  SetBudgetCommandSchema,
  SetBudgetResultSchema,
} from "./budget.ts";
import {
  CheckpointDiffCommandSchema,
  CheckpointDiffResultSchema,
  ListCheckpointsCommandSchema,
  ListCheckpointsResultSchema,
  RestoreCheckpointCommandSchema,
  RestoreCheckpointResultSchema,
} from "./checkpoints.ts";
import { ClientReadResponseCommandSchema, ClientReadResponseResultSchema } from "./client-reads.ts";
import { DaemonResponseCommandSchema, DaemonResponseResultSchema } from "./daemon-link.ts";
import {
  AgentAttachCommandSchema,
  AgentAttachResultSchema,
  AgentCreateCommandSchema,
  AgentCreateResultSchema,
  AgentDetachCommandSchema,
  AgentDetachResultSchema,
  AgentKillCommandSchema,
  AgentKillResultSchema,
  AgentListCommandSchema,
  AgentListResultSchema,
  AgentStatusCommandSchema,
  AgentStatusResultSchema,
  AgentTerminateCommandSchema,
  AgentTerminateResultSchema,
  DaemonShutdownCommandSchema,
  DaemonShutdownResultSchema,
} from "./orchestrator.ts";
import { PermissionResponseSchema, UiResponseSchema } from "./permissions.ts";
import { PlacementListCommandSchema, PlacementListResultSchema } from "./placements.ts";
import { ProviderStatusCommandSchema, ProviderStatusResultSchema } from "./provider-status.ts";
import { SessionOpCommandSchema, SessionOpResultSchema } from "./session-op.ts";
import {
  SessionActivateCommandSchema,
  SessionActivateResultSchema,
  SessionListCommandSchema,
  SessionListResultSchema,
} from "./sessions.ts";
import {
  SubagentCreateCommandSchema,
  SubagentCreateResultSchema,
  SubagentRelaunchCommandSchema,
  SubagentRelaunchResultSchema,
  SubagentStatusCommandSchema,
  SubagentStatusResultSchema,
  SubagentSteerCommandSchema,
  SubagentSteerResultSchema,
  SubagentStopCommandSchema,
  SubagentStopResultSchema,
  SubagentWaitCommandSchema,
  SubagentWaitResultSchema,
} from "./subagent.ts";
import { DaemonUsageCommandSchema, DaemonUsageResultSchema } from "./usage.ts";
import {
  WorkspaceAttachCommandSchema,
  WorkspaceAttachResultSchema,
  WorkspaceCreateCommandSchema,
  WorkspaceCreateResultSchema,
  WorkspaceDiffCommandSchema,
  WorkspaceDiffResultSchema,
  WorkspaceListCommandSchema,
  WorkspaceListResultSchema,
  WorkspaceRetireCommandSchema,
  WorkspaceRetireResultSchema,
  WorkspaceStatusCommandSchema,
  WorkspaceStatusResultSchema,
} from "./workspace.ts";

/**
 * Who answers a command. `runtime` commands are per-agent: the daemon routes them by
 * `agent_id` to the agent's runtime; every other owner is a subsystem of the daemon.
 */
export type CommandOwner =
  | "runtime"
  | "registry"
  | "sessions"
  | "workspaces"
  | "subagents"
  | "auth"
  | "providers"
  | "changes"
  | "usage";

interface CommandContract {
  readonly command: TObject;
  readonly result: TSchema;
  readonly owner: CommandOwner;
  /** Ours, not in the user's protocol (docs/protocol-additions.md). */
  readonly addition?: true;
}

export const COMMANDS = {
  prompt: { command: PromptCommandSchema, result: PromptResultSchema, owner: "runtime" },
  steer: { command: SteerCommandSchema, result: SteerResultSchema, owner: "runtime" },
  abort: { command: AbortCommandSchema, result: AbortResultSchema, owner: "runtime" },
  set_mode: { command: SetModeCommandSchema, result: SetModeResultSchema, owner: "runtime" },
  list_modes: { command: ListModesCommandSchema, result: ListModesResultSchema, owner: "runtime" },
  list_models: { command: ListModelsCommandSchema, result: ListModelsResultSchema, owner: "runtime" },
  set_model: { command: SetModelCommandSchema, result: SetModelResultSchema, owner: "runtime" },
  list_reasoning_levels: {
    command: ListReasoningLevelsCommandSchema,
    result: ListReasoningLevelsResultSchema,
    owner: "runtime",
  },
  set_reasoning_level: {
    command: SetReasoningLevelCommandSchema,
    result: SetReasoningLevelResultSchema,
    owner: "runtime",
  },
  set_sandbox: {
    command: SetSandboxCommandSchema,
    result: SetSandboxResultSchema,
    owner: "runtime",
    addition: true,
  },
  set_budget: {
    command: SetBudgetCommandSchema,
    result: SetBudgetResultSchema,
    owner: "runtime",
    addition: true,
  },
  budget_limits: {
    command: BudgetLimitsCommandSchema,
    result: BudgetLimitsResultSchema,
    owner: "runtime",
    addition: true,
  },
  list_checkpoints: {
    command: ListCheckpointsCommandSchema,
    result: ListCheckpointsResultSchema,
    owner: "runtime",
    addition: true,
  },
  checkpoint_diff: {
    command: CheckpointDiffCommandSchema,
    result: CheckpointDiffResultSchema,
    owner: "runtime",
    addition: true,
  },
  restore_checkpoint: {
    command: RestoreCheckpointCommandSchema,
    result: RestoreCheckpointResultSchema,
    owner: "runtime",
    addition: true,
  },
  session_op: { command: SessionOpCommandSchema, result: SessionOpResultSchema, owner: "runtime" },
  permission_response: {
    command: PermissionResponseSchema,
    result: PermissionResponseResultSchema,
    owner: "runtime",
  },
  ui_response: { command: UiResponseSchema, result: UiResponseResultSchema, owner: "runtime" },
  client_read_response: {
    command: ClientReadResponseCommandSchema,
    result: ClientReadResponseResultSchema,
    owner: "runtime",
    addition: true,
  },
  daemon_response: {
    command: DaemonResponseCommandSchema,
    result: DaemonResponseResultSchema,
    owner: "runtime",
    addition: true,
  },

  "agent.list": { command: AgentListCommandSchema, result: AgentListResultSchema, owner: "registry" },
  "agent.create": { command: AgentCreateCommandSchema, result: AgentCreateResultSchema, owner: "registry" },
  "agent.attach": { command: AgentAttachCommandSchema, result: AgentAttachResultSchema, owner: "registry" },
  "agent.detach": { command: AgentDetachCommandSchema, result: AgentDetachResultSchema, owner: "registry" },
  "agent.terminate": {
    command: AgentTerminateCommandSchema,
    result: AgentTerminateResultSchema,
    owner: "registry",
  },
  "agent.kill": { command: AgentKillCommandSchema, result: AgentKillResultSchema, owner: "registry" },
  "placement.list": {
    command: PlacementListCommandSchema,
    result: PlacementListResultSchema,
    owner: "registry",
    addition: true,
  },
  "agent.status": { command: AgentStatusCommandSchema, result: AgentStatusResultSchema, owner: "registry" },
  "agent.rename": {
    command: AgentRenameCommandSchema,
    result: AgentRenameResultSchema,
    owner: "registry",
    addition: true,
  },
  "agent.delete": {
    command: AgentDeleteCommandSchema,
    result: AgentDeleteResultSchema,
    owner: "registry",
    addition: true,
  },
  "daemon.shutdown": {
    command: DaemonShutdownCommandSchema,
    result: DaemonShutdownResultSchema,
    owner: "registry",
  },

  "workspace.create": {
    command: WorkspaceCreateCommandSchema,
    result: WorkspaceCreateResultSchema,
    owner: "workspaces",
  },
  "workspace.attach": {
    command: WorkspaceAttachCommandSchema,
    result: WorkspaceAttachResultSchema,
    owner: "workspaces",
  },
  "workspace.list": {
    command: WorkspaceListCommandSchema,
    result: WorkspaceListResultSchema,
    owner: "workspaces",
  },
  "workspace.status": {
    command: WorkspaceStatusCommandSchema,
    result: WorkspaceStatusResultSchema,
    owner: "workspaces",
  },
  "workspace.retire": {
    command: WorkspaceRetireCommandSchema,
    result: WorkspaceRetireResultSchema,
    owner: "workspaces",
  },
  "workspace.diff": {
    command: WorkspaceDiffCommandSchema,
    result: WorkspaceDiffResultSchema,
    owner: "workspaces",
    addition: true,
  },

  "subagent.create": {
    command: SubagentCreateCommandSchema,
    result: SubagentCreateResultSchema,
    owner: "subagents",
  },
  "subagent.wait": {
    command: SubagentWaitCommandSchema,
    result: SubagentWaitResultSchema,
    owner: "subagents",
  },
  "subagent.steer": {
    command: SubagentSteerCommandSchema,
    result: SubagentSteerResultSchema,
    owner: "subagents",
  },
  "subagent.relaunch": {
    command: SubagentRelaunchCommandSchema,
    result: SubagentRelaunchResultSchema,
    owner: "subagents",
  },
  "subagent.status": {
    command: SubagentStatusCommandSchema,
    result: SubagentStatusResultSchema,
    owner: "subagents",
  },
  "subagent.stop": {
    command: SubagentStopCommandSchema,
    result: SubagentStopResultSchema,
    owner: "subagents",
  },

  "session.list": {
    command: SessionListCommandSchema,
    result: SessionListResultSchema,
    owner: "sessions",
    addition: true,
  },
  "session.activate": {
    command: SessionActivateCommandSchema,
    result: SessionActivateResultSchema,
    owner: "sessions",
    addition: true,
  },

  "auth.enroll": {
    command: AuthEnrollCommandSchema,
    result: AuthEnrollResultSchema,
    owner: "auth",
    addition: true,
  },
  "auth.list": {
    command: AuthListCommandSchema,
    result: AuthListResultSchema,
    owner: "auth",
    addition: true,
  },
  "auth.revoke": {
    command: AuthRevokeCommandSchema,
    result: AuthRevokeResultSchema,
    owner: "auth",
    addition: true,
  },

  "daemon.usage": {
    command: DaemonUsageCommandSchema,
    result: DaemonUsageResultSchema,
    owner: "usage",
    addition: true,
  },
  "provider.status": {
    command: ProviderStatusCommandSchema,
    result: ProviderStatusResultSchema,
    owner: "providers",
    addition: true,
  },

  "agent.changes": {
    command: AgentChangesCommandSchema,
    result: AgentChangesResultSchema,
    owner: "changes",
    addition: true,
  },
} as const satisfies Record<string, CommandContract>;

type Table = typeof COMMANDS;
export type CommandType = keyof Table;
/** The command of one `type`, as validated. */
export type CommandOf<T extends CommandType> = Static<Table[T]["command"]>;
/** The `response.data` of one command type's success. */
export type ResultOf<T extends CommandType> = Static<Table[T]["result"]>;
/** The command types one owner answers. */
export type CommandTypeOwnedBy<O extends CommandOwner> = {
  [T in CommandType]: Table[T]["owner"] extends O ? T : never;
}[CommandType];

/** `{ type → command }` for every command: the map generic dispatch is written against. */
export type CommandMap = { [T in CommandType]: CommandOf<T> };
/** `{ type → result }` for every command. */
export type ResultMap = { [T in CommandType]: ResultOf<T> };

/** Commands one agent runtime handles; the daemon routes them by `agent_id`. */
export type AgentCommandType = CommandTypeOwnedBy<"runtime">;
export type AgentCommand = CommandMap[AgentCommandType];
/** Commands the daemon answers itself: never routed by `agent_id`. */
export type DaemonCommandType = Exclude<CommandType, AgentCommandType>;
export type DaemonCommand = CommandMap[DaemonCommandType];
export type AnyCommand = CommandMap[CommandType];

/** The table's entries in declaration order, each with its `type`. */
export const COMMAND_ENTRIES: readonly (CommandContract & { type: CommandType })[] = commandEntries();

function commandEntries(): (CommandContract & { type: CommandType })[] {
  const entries: (CommandContract & { type: CommandType })[] = [];
  for (const type of commandTypes()) {
    const entry: CommandContract = COMMANDS[type];
    const literal: unknown = entry.command.properties.type?.const;
    // The key and the schema's literal `type` are written twice; a mismatch is a programming error.
    if (literal !== type)
      throw new Error(`command table: "${type}" holds the schema of "${String(literal)}"`);
    entries.push({ ...entry, type });
  }
  return entries;
}

function commandTypes(): CommandType[] {
  const types: CommandType[] = [];
  for (const key of Object.keys(COMMANDS)) if (isCommandType(key)) types.push(key);
  return types;
}

export function isCommandType(type: string): type is CommandType {
  return Object.hasOwn(COMMANDS, type);
}

/** Whether a validated command is per-agent (answered by a runtime). */
export function isAgentCommand(command: AnyCommand): command is AgentCommand {
  return COMMANDS[command.type].owner === "runtime";
}

type WithoutId<C> = C extends unknown ? Omit<C, "id"> : never;
/** Any command as a client writes it before numbering it: the CLI, the SDK and the web client send these. */
export type OutboundCommand = WithoutId<AnyCommand>;
