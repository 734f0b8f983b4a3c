/**
 * The package's public surface (`@shard-dev/sdk`): what a script imports. Each name is
 * exported explicitly; internals stay in their own modules.
 */

export { type BackoffOptions, reconnectDelayMs } from "../../src/client/backoff.ts";
export type { AgentSnapshot, PendingRequest } from "../../src/snapshot/agent-snapshot.ts";
export type { AgentInfo, RuntimeState } from "../../src/types/agent-info.ts";
export type { AgentStatus, Usage } from "../../src/types/agent-state.ts";
export type { BudgetScope, BudgetState } from "../../src/types/budget.ts";
export type { AgentEvent, AgentEventOf, AgentEventType, DaemonEvent } from "../../src/types/catalog.ts";
export type {
  CheckpointSummary,
  RestoreCheckpointResult,
} from "../../src/types/checkpoints.ts";
export type { ErrorCode } from "../../src/types/errors.ts";
export type { ContentBlock, Message } from "../../src/types/messages.ts";
export type { AttachRole, HeadlessPolicy } from "../../src/types/orchestrator.ts";
export type {
  PermissionDecision,
  PermissionRequest,
  PermissionResolved,
  UiRequest,
  UiResolved,
} from "../../src/types/permissions.ts";
export type { SandboxMode, SandboxPolicy, SandboxState } from "../../src/types/sandbox.ts";
export type { SessionSummary } from "../../src/types/sessions.ts";
export type {
  DaemonUsageResult,
  UsageGrouping,
  UsageRow,
  UsageTotals,
} from "../../src/types/usage.ts";
export type {
  WorkspaceDetail,
  WorkspaceRetireConflict,
  WorkspaceSummary,
} from "../../src/types/workspace-projection.ts";
export { Agent } from "./agent.ts";
export type { DeleteAgentOptions, UnhandledRequests } from "./agent-link.ts";
export type {
  AgentOptions,
  AttachOptions,
  PromptOptions,
  RestoreOptions,
  RunOptions,
  RunResult,
} from "./agent-options.ts";
export type { AgentSessionList } from "./agent-sessions.ts";
export { CheckpointConflictError } from "./checkpoint-conflict.ts";
export type { UsageQuery } from "./daemon-client.ts";
export {
  type ConnectDaemonOptions,
  type ConnectionNotice,
  type CreateAgentParams,
  connectDaemon,
  DaemonClient,
  type DaemonStreamEvent,
} from "./daemon-client.ts";
export { DaemonSubagents } from "./daemon-subagents.ts";
export type { DaemonTarget, LocalDaemonTarget, RemoteDaemonTarget } from "./daemon-target.ts";
export { DaemonWorkspaces, type WorkspaceLaunch } from "./daemon-workspaces.ts";
export { type SpawnAgentOptions, spawnAgent } from "./direct.ts";
export { ShardError } from "./errors.ts";
export { type FleetAgentInfo, type FleetListing, ShardFleet } from "./fleet.ts";
export type { PermissionPolicy } from "./permission-policy.ts";
export { cookieTicketSource, enrollWithCode, type RemoteDaemon, type TicketSource } from "./remote-auth.ts";
export {
  type PermissionAnswer,
  type PermissionHandler,
  type RequestContext,
  ResolvedElsewhere,
  type UiAnswer,
  type UiHandler,
} from "./request-responder.ts";
export type { AgentStreamEvent, GapEvent } from "./stream-events.ts";
export { type JsonSchema, type OutputIssue, OutputValidationError } from "./structured-output.ts";
export type { WebSocketConstructor, WebSocketInit } from "./transports/websocket-transport.ts";
export { Turn, type TurnResult, type TurnUsage } from "./turn.ts";
