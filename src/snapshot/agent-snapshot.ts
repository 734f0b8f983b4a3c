/**
 * The one projection of an agent's state (docs/architecture.md §2, §8.1): what a client needs to
 * render the agent, kept current by `applyEvent`. The runtime builds `sync` from it, the daemon
 * keeps one per agent for attach, and the SDK and the web client hold their state in it.
 */
import type { LiveWindow, SyncEvent, ToolCallRecord } from "../types/agent-events.ts";
import type { AgentStatus, Usage } from "../types/agent-state.ts";
import type { BudgetState } from "../types/budget.ts";
import type { ModelDescriptor } from "../types/controls.ts";
import type { McpServerStatus } from "../types/mcp-status.ts";
import type { PermissionRequest, UiRequest } from "../types/permissions.ts";
import type { SandboxState } from "../types/sandbox.ts";
import type { StreamingMessage } from "../types/streaming-message.ts";
import type { TurnRetry } from "../types/turn-failures.ts";

export type PendingRequest = PermissionRequest | UiRequest;

export interface AgentSnapshot {
  status: AgentStatus;
  mode: string;
  capabilities: string[];
  session_id?: string;
  model?: ModelDescriptor;
  reasoning_level?: string;
  /** Post-compaction conversation, oldest first (a compaction leads with its summary message). */
  live_window: LiveWindow;
  /** The assistant message whose deltas are arriving, until its `message_complete`. */
  streaming_message?: StreamingMessage;
  turn_id?: string;
  /** Open permission and UI requests, in the order they were asked; never carry `seq`. */
  pending_requests: PendingRequest[];
  /** Summed over the provider calls this projection has seen. */
  usage: Usage;
  /**
   * What `tool_call`/`tool_output`/`tool_result` said about the calls of the live window
   * (render descriptors, exit code, duration, live output tail), oldest first; absent when none.
   */
  tool_calls?: ToolCallRecord[];
  /** The provider retry in progress (the newest `turn_retry`), until the turn moves on. */
  retry?: TurnRetry;
  /** The OS sandbox the agent's commands run in (docs/sandbox.md). */
  sandbox?: SandboxState;
  /** The agent's MCP servers (docs/mcp.md); absent until its first turn starts them. */
  mcp_servers?: McpServerStatus[];
  /** Spending against the agent's limits (docs/usage.md); absent from a runtime that predates it. */
  budget?: BudgetState;
  /** The `seq` of the newest event applied; 0 before any. */
  last_seq: number;
  runtime_epoch?: number;
}

export function emptySnapshot(): AgentSnapshot {
  return {
    status: "idle",
    mode: "build",
    capabilities: [],
    live_window: { messages: [] },
    pending_requests: [],
    usage: { input: 0, output: 0 },
    last_seq: 0,
  };
}

/** A `sync` is a whole snapshot: it replaces whatever the client held. */
export function snapshotFromSync(sync: SyncEvent): AgentSnapshot {
  const snapshot: AgentSnapshot = {
    status: sync.status,
    mode: sync.mode,
    capabilities: sync.capabilities ?? [],
    live_window: sync.live_window,
    pending_requests: sync.pending_requests.map(withoutSeq),
    usage: sync.usage ?? { input: 0, output: 0 },
    last_seq: sync.seq ?? 0,
  };
  if (sync.session_id !== undefined) snapshot.session_id = sync.session_id;
  if (sync.model !== undefined) snapshot.model = sync.model;
  if (sync.reasoning_level !== undefined) snapshot.reasoning_level = sync.reasoning_level;
  if (sync.turn_id !== undefined) snapshot.turn_id = sync.turn_id;
  if (sync.streaming_message !== undefined) snapshot.streaming_message = sync.streaming_message;
  if (sync.runtime_epoch !== undefined) snapshot.runtime_epoch = sync.runtime_epoch;
  if (sync.tool_calls?.length) snapshot.tool_calls = sync.tool_calls;
  if (sync.retry !== undefined) snapshot.retry = sync.retry;
  if (sync.sandbox !== undefined) snapshot.sandbox = sync.sandbox;
  if (sync.mcp_servers !== undefined) snapshot.mcp_servers = sync.mcp_servers;
  if (sync.budget !== undefined) snapshot.budget = sync.budget;
  return snapshot;
}

/** The `sync` event that shows `snapshot` to a client attaching now. */
export function syncFromSnapshot(snapshot: AgentSnapshot): SyncEvent {
  const sync: SyncEvent = {
    type: "sync",
    seq: snapshot.last_seq,
    status: snapshot.status,
    mode: snapshot.mode,
    capabilities: snapshot.capabilities,
    live_window: snapshot.live_window,
    pending_requests: snapshot.pending_requests,
    usage: snapshot.usage,
  };
  if (snapshot.session_id !== undefined) sync.session_id = snapshot.session_id;
  if (snapshot.model !== undefined) sync.model = snapshot.model;
  if (snapshot.reasoning_level !== undefined) sync.reasoning_level = snapshot.reasoning_level;
  if (snapshot.turn_id !== undefined) sync.turn_id = snapshot.turn_id;
  if (snapshot.streaming_message !== undefined) sync.streaming_message = snapshot.streaming_message;
  if (snapshot.runtime_epoch !== undefined) sync.runtime_epoch = snapshot.runtime_epoch;
  if (snapshot.tool_calls?.length) sync.tool_calls = snapshot.tool_calls;
  if (snapshot.retry !== undefined) sync.retry = snapshot.retry;
  if (snapshot.sandbox !== undefined) sync.sandbox = snapshot.sandbox;
  if (snapshot.mcp_servers !== undefined) sync.mcp_servers = snapshot.mcp_servers;
  if (snapshot.budget !== undefined) sync.budget = snapshot.budget;
  return sync;
}

/** Requests are kept as asked, not as stamped: their `seq` belongs to the event, not the request. */
export function withoutSeq(request: PendingRequest): PendingRequest {
  if (request.type === "permission_request") {
    const { seq: _seq, ...asked } = request;
    return asked;
  }
  const { seq: _seq, ...asked } = request;
  return asked;
}
