/**
 * The closed message catalog: every wire message schema keyed by its `type`, which the
 * validator (src/wire) checks against and the JSON Schema export walks. Commands come from the
 * command table (command-table.ts); events are listed here.
 */

import type { Static, TObject } from "@sinclair/typebox";
import {
  HelloEventSchema,
  ModeChangedEventSchema,
  ModelChangedEventSchema,
  QueueDroppedEventSchema,
  ReasoningLevelChangedEventSchema,
  SandboxChangedEventSchema,
  StatusEventSchema,
  SyncEventSchema,
} from "./agent-events.ts";
import { AgentDeletedEventSchema, AgentUpdatedEventSchema } from "./agent-manage.ts";
import { BudgetChangedEventSchema } from "./budget.ts";
import { ClientReadRequestEventSchema } from "./client-reads.ts";
import { COMMAND_ENTRIES } from "./command-table.ts";
import { DaemonCancelEventSchema, DaemonRequestEventSchema } from "./daemon-link.ts";
import { McpStatusEventSchema } from "./mcp-status.ts";
import {
  AgentActivityEventSchema,
  AgentExitedEventSchema,
  AgentSpawnedEventSchema,
  AgentStatusChangedEventSchema,
} from "./orchestrator-events.ts";
import {
  PermissionRequestSchema,
  PermissionResolvedSchema,
  UiRequestSchema,
  UiResolvedSchema,
} from "./permissions.ts";
import { ResponseSchema } from "./response.ts";
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
import { SubagentRunChangedEventSchema } from "./subagent.ts";
import { TurnFailedEventSchema, TurnRetryEventSchema } from "./turn-failures.ts";
import {
  WorkspaceAttachedEventSchema,
  WorkspaceConflictEventSchema,
  WorkspaceCreatedEventSchema,
  WorkspaceRetiredEventSchema,
} from "./workspace.ts";

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
  SandboxChangedEventSchema,
  BudgetChangedEventSchema,
  McpStatusEventSchema,
  ClientReadRequestEventSchema,
  DaemonRequestEventSchema,
  DaemonCancelEventSchema,
  QueueDroppedEventSchema,
  TurnFailedEventSchema,
  TurnRetryEventSchema,
] as const;

/** Events the daemon authors about its registry, workspaces and subagent jobs. */
export const DAEMON_EVENT_SCHEMAS = [
  AgentSpawnedEventSchema,
  AgentExitedEventSchema,
  AgentStatusChangedEventSchema,
  AgentActivityEventSchema,
  AgentUpdatedEventSchema,
  AgentDeletedEventSchema,
  WorkspaceCreatedEventSchema,
  WorkspaceAttachedEventSchema,
  WorkspaceRetiredEventSchema,
  WorkspaceConflictEventSchema,
  SubagentRunChangedEventSchema,
] as const;

/** The literal `type` of a message schema; a schema without one is a programming error. */
export function messageType(schema: TObject): string {
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

/** Every client → server message, keyed by `type` (the command table's order). */
export const COMMAND_SCHEMAS: ReadonlyMap<string, TObject> = byType(
  COMMAND_ENTRIES.map((entry) => entry.command),
);

/** Every server → client message except `response`, keyed by `type`. */
export const EVENT_SCHEMAS: ReadonlyMap<string, TObject> = byType([
  ...AGENT_EVENT_SCHEMAS,
  ...DAEMON_EVENT_SCHEMAS,
]);

export const RESPONSE_SCHEMA = ResponseSchema;

export type AgentEvent = Static<(typeof AGENT_EVENT_SCHEMAS)[number]>;
export type AgentEventType = AgentEvent["type"];
/** One event of the union by its `type`. */
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;

/** Registry, workspace and subagent events: `agent_id`, where present, is payload. */
export type DaemonEvent = Static<(typeof DAEMON_EVENT_SCHEMAS)[number]>;

type WithoutSeq<E> = E extends unknown ? Omit<E, "seq"> : never;
/** What a runtime hands to its outbox: an event before the outbox stamps its `seq`. */
export type UnsequencedAgentEvent = WithoutSeq<AgentEvent>;
