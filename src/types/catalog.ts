/**
 * The closed message catalog: every wire message schema keyed by its `type`, which the
 * validator (src/wire) compiles once and the JSON Schema export walks.
 */
import type { Static, TObject } from "@sinclair/typebox";
import {
  AbortCommandSchema,
  ListModelsCommandSchema,
  ListModesCommandSchema,
  ListReasoningLevelsCommandSchema,
  PromptCommandSchema,
  SetModeCommandSchema,
  SetModelCommandSchema,
  SetReasoningLevelCommandSchema,
  SteerCommandSchema,
} from "./agent-commands.ts";
import {
  HelloEventSchema,
  ModeChangedEventSchema,
  ModelChangedEventSchema,
  QueueDroppedEventSchema,
  ReasoningLevelChangedEventSchema,
  StatusEventSchema,
  SyncEventSchema,
} from "./agent-events.ts";
import {
  ListModelsResultSchema,
  ListModesResultSchema,
  ListReasoningLevelsResultSchema,
  SetModelResultSchema,
  SetModeResultSchema,
  SetReasoningLevelResultSchema,
} from "./agent-results.ts";
import { AuthEnrollCommandSchema, AuthListCommandSchema, AuthRevokeCommandSchema } from "./auth.ts";
import {
  AgentAttachCommandSchema,
  AgentCreateCommandSchema,
  AgentDetachCommandSchema,
  AgentKillCommandSchema,
  AgentListCommandSchema,
  AgentStatusCommandSchema,
  AgentTerminateCommandSchema,
  DaemonShutdownCommandSchema,
} from "./orchestrator.ts";
import {
  AgentActivityEventSchema,
  AgentExitedEventSchema,
  AgentSpawnedEventSchema,
  AgentStatusChangedEventSchema,
} from "./orchestrator-events.ts";
import {
  PermissionRequestSchema,
  PermissionResolvedSchema,
  PermissionResponseSchema,
  UiRequestSchema,
  UiResolvedSchema,
  UiResponseSchema,
} from "./permissions.ts";
import { ProviderStatusCommandSchema } from "./provider-status.ts";
import { ResponseSchema } from "./response.ts";
import { SessionActivateCommandSchema, SessionListCommandSchema } from "./session-first.ts";
import { SessionOpCommandSchema } from "./session-op.ts";
import {
  CompactionEventSchema,
  ErrorEventSchema,
  MessageCompleteEventSchema,
  MessageDeltaEventSchema,
  ToolCallEventSchema,
  ToolOutputEventSchema,
  ToolResultEventSchema,
  TurnEndEventSchema,
  TurnStartEventSchema,
  UsageEventSchema,
} from "./stream-events.ts";
import { SUBAGENT_COMMAND_SCHEMAS, SubagentRunChangedEventSchema } from "./subagent.ts";
import {
  WorkspaceAttachCommandSchema,
  WorkspaceAttachedEventSchema,
  WorkspaceConflictEventSchema,
  WorkspaceCreateCommandSchema,
  WorkspaceCreatedEventSchema,
  WorkspaceDiffCommandSchema,
  WorkspaceListCommandSchema,
  WorkspaceRetireCommandSchema,
  WorkspaceRetiredEventSchema,
  WorkspaceStatusCommandSchema,
} from "./workspace.ts";

/** Commands one agent runtime handles; the daemon routes them by `agent_id`. */
export const AGENT_COMMAND_SCHEMAS = [
  PromptCommandSchema,
  SteerCommandSchema,
  AbortCommandSchema,
  SetModeCommandSchema,
  ListModesCommandSchema,
  ListModelsCommandSchema,
  SetModelCommandSchema,
  ListReasoningLevelsCommandSchema,
  SetReasoningLevelCommandSchema,
  SessionOpCommandSchema,
  PermissionResponseSchema,
  UiResponseSchema,
] as const;

/** The daemon's registry commands (PROTOCOL §10.1). */
export const REGISTRY_COMMAND_SCHEMAS = [
  AgentListCommandSchema,
  AgentCreateCommandSchema,
  AgentAttachCommandSchema,
  AgentDetachCommandSchema,
  AgentTerminateCommandSchema,
  AgentKillCommandSchema,
  AgentStatusCommandSchema,
  DaemonShutdownCommandSchema,
] as const;

/** Session-first commands (docs/protocol-additions.md §3). */
export const SESSION_COMMAND_SCHEMAS = [SessionListCommandSchema, SessionActivateCommandSchema] as const;

/** Browser enrollment commands, unix socket only (docs/protocol-additions.md §10). */
export const AUTH_COMMAND_SCHEMAS = [
  AuthEnrollCommandSchema,
  AuthListCommandSchema,
  AuthRevokeCommandSchema,
] as const;

/** Whether new agents have a model provider (docs/protocol-additions.md §12). */
export const PROVIDER_COMMAND_SCHEMAS = [ProviderStatusCommandSchema] as const;

/** Workspace commands (PROTOCOL §10.1a). */
export const WORKSPACE_COMMAND_SCHEMAS = [
  WorkspaceCreateCommandSchema,
  WorkspaceAttachCommandSchema,
  WorkspaceListCommandSchema,
  WorkspaceStatusCommandSchema,
  WorkspaceRetireCommandSchema,
  WorkspaceDiffCommandSchema,
] as const;

/** Commands the daemon handles itself: registry, daemon, workspaces, subagents, sessions, auth, providers. */
const orchestratorCommandSchemas = [
  ...REGISTRY_COMMAND_SCHEMAS,
  ...WORKSPACE_COMMAND_SCHEMAS,
  ...SUBAGENT_COMMAND_SCHEMAS,
  ...SESSION_COMMAND_SCHEMAS,
  ...AUTH_COMMAND_SCHEMAS,
  ...PROVIDER_COMMAND_SCHEMAS,
] as const;

/** Events an agent runtime emits (the daemon forwards them tagged with `agent_id`). */
export const AGENT_EVENT_SCHEMAS = [
  HelloEventSchema,
  SyncEventSchema,
  StatusEventSchema,
  TurnStartEventSchema,
  MessageDeltaEventSchema,
  MessageCompleteEventSchema,
  ToolCallEventSchema,
  ToolOutputEventSchema,
  ToolResultEventSchema,
  TurnEndEventSchema,
  UsageEventSchema,
  CompactionEventSchema,
  ErrorEventSchema,
  PermissionRequestSchema,
  PermissionResolvedSchema,
  UiRequestSchema,
  UiResolvedSchema,
  ModeChangedEventSchema,
  ModelChangedEventSchema,
  ReasoningLevelChangedEventSchema,
  QueueDroppedEventSchema,
] as const;

/** Events the daemon authors about its registry, workspaces and subagent jobs. */
export const DAEMON_EVENT_SCHEMAS = [
  AgentSpawnedEventSchema,
  AgentExitedEventSchema,
  AgentStatusChangedEventSchema,
  AgentActivityEventSchema,
  WorkspaceCreatedEventSchema,
  WorkspaceAttachedEventSchema,
  WorkspaceRetiredEventSchema,
  WorkspaceConflictEventSchema,
  SubagentRunChangedEventSchema,
] as const;

/** The literal `type` of a message schema; a schema without one is a programming error. */
function messageType(schema: TObject): string {
  const literal: unknown = schema.properties.type?.const;
  if (typeof literal !== "string") throw new Error(`message schema ${schema.$id} has no literal type`);
  return literal;
}

function byType(schemas: readonly TObject[]): ReadonlyMap<string, TObject> {
  const map = new Map<string, TObject>();
  for (const schema of schemas) {
    const type = messageType(schema);
    if (map.has(type)) throw new Error(`duplicate message type ${type}`);
    map.set(type, schema);
  }
  return map;
}

/** Every client → server message, keyed by `type`. */
export const COMMAND_SCHEMAS: ReadonlyMap<string, TObject> = byType([
  ...AGENT_COMMAND_SCHEMAS,
  ...orchestratorCommandSchemas,
]);

/** Every server → client message except `response`, keyed by `type`. */
export const EVENT_SCHEMAS: ReadonlyMap<string, TObject> = byType([
  ...AGENT_EVENT_SCHEMAS,
  ...DAEMON_EVENT_SCHEMAS,
]);

export const RESPONSE_SCHEMA = ResponseSchema;

export const PER_AGENT_COMMANDS: ReadonlySet<string> = new Set(AGENT_COMMAND_SCHEMAS.map(messageType));

export const ORCHESTRATOR_COMMANDS: ReadonlySet<string> = new Set(
  orchestratorCommandSchemas.map(messageType),
);

export type AgentCommand = Static<(typeof AGENT_COMMAND_SCHEMAS)[number]>;
export type AgentEvent = Static<(typeof AGENT_EVENT_SCHEMAS)[number]>;
export type AgentEventType = AgentEvent["type"];
/** One event of the union by its `type`. */
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;

/** Orchestrator commands (registry, sessions, workspaces, subagents, auth): never routed by agent_id. */
export type DaemonCommand = Static<(typeof orchestratorCommandSchemas)[number]>;

type WithoutId<C> = C extends unknown ? Omit<C, "id"> : never;
/** Any command as a client writes it before numbering it: the CLI, the SDK and the web client send these. */
export type OutboundCommand = WithoutId<AgentCommand | DaemonCommand>;

/** Registry, workspace and subagent events: `agent_id`, where present, is payload. */
export type DaemonEvent = Static<(typeof DAEMON_EVENT_SCHEMAS)[number]>;

type WithoutSeq<E> = E extends unknown ? Omit<E, "seq"> : never;
/** What a runtime hands to its outbox: an event before the outbox stamps its `seq`. */
export type UnsequencedAgentEvent = WithoutSeq<AgentEvent>;

/**
 * `response.data` of the per-agent commands whose success result has one fixed shape, keyed
 * by the command `type` (the SDK and the contract tests check responses against these).
 */
export const RESULT_SCHEMAS: ReadonlyMap<string, TObject> = new Map<string, TObject>([
  ["set_mode", SetModeResultSchema],
  ["list_modes", ListModesResultSchema],
  ["list_models", ListModelsResultSchema],
  ["set_model", SetModelResultSchema],
  ["list_reasoning_levels", ListReasoningLevelsResultSchema],
  ["set_reasoning_level", SetReasoningLevelResultSchema],
]);
