/**
 * The pure reducer over the agent event union: `applyEvent(snapshot, event)` returns the next
 * snapshot and never mutates its input. One `case` per event type; events that change nothing
 * a client renders from state (errors) only advance `last_seq`.
 */
import type { ToolCallRecord } from "../types/agent-events.ts";
import type { Usage } from "../types/agent-state.ts";
import type { AgentEvent } from "../types/catalog.ts";
import type { UsageEvent } from "../types/stream-events.ts";
import { type AgentSnapshot, snapshotFromSync, withoutSeq } from "./agent-snapshot.ts";
import { compacted, toolResultMessage, withMessage } from "./live-window.ts";
import { applyDelta } from "./streaming-message.ts";
import { recordCall, recordOutput, recordResult, recordsInWindow } from "./tool-call-records.ts";
import { anchoredFailures, withFailure } from "./turn-failures.ts";

export function applyEvent(snapshot: AgentSnapshot, event: AgentEvent): AgentSnapshot {
  const next = reduce(snapshot, event);
  if (event.seq === undefined || event.type === "sync") return next;
  if (next === snapshot) return { ...next, last_seq: event.seq };
  // `reduce` made `next` just now (it returns its input or a new object): stamping it copies nothing.
  next.last_seq = event.seq;
  return next;
}

export function applyEvents(snapshot: AgentSnapshot, events: Iterable<AgentEvent>): AgentSnapshot {
  let current = snapshot;
  for (const event of events) current = applyEvent(current, event);
  return current;
}

function reduce(s: AgentSnapshot, event: AgentEvent): AgentSnapshot {
  switch (event.type) {
    case "hello":
      return { ...s, capabilities: event.capabilities };
    case "sync":
      return snapshotFromSync(event);
    case "status":
      return { ...s, status: event.status };
    case "turn_start":
      return { ...withoutRetry(s), turn_id: event.turn_id };
    case "turn_end": {
      const { turn_id: _turn, streaming_message: _streaming, retry: _retry, ...rest } = s;
      return rest;
    }
    case "message_delta":
      return { ...withoutRetry(s), streaming_message: applyDelta(s.streaming_message, event) };
    case "message_complete": {
      const live_window = withMessage(s.live_window, event.message);
      if (s.streaming_message?.message_id !== event.message_id) return { ...withoutRetry(s), live_window };
      const { streaming_message: _done, retry: _retry, ...rest } = s;
      return { ...rest, live_window };
    }
    case "turn_failed":
      return { ...withoutRetry(s), live_window: withFailure(s.live_window, event.failure) };
    case "turn_retry": {
      const { attempt, max_attempts, delay_ms, reason } = event;
      return { ...s, retry: { attempt, max_attempts, delay_ms, reason } };
    }
    case "tool_call":
      return withRecords(s, recordCall(s.tool_calls, event));
    case "tool_output": {
      const records = recordOutput(s.tool_calls, event);
      return records === undefined ? s : withRecords(s, records);
    }
    case "tool_result": {
      const recorded = withRecords(s, recordResult(s.tool_calls, event));
      if (event.message_id === undefined) return recorded;
      const message = toolResultMessage(event, event.message_id);
      return { ...recorded, live_window: withMessage(s.live_window, message) };
    }
    case "compaction": {
      const live_window = anchoredFailures(compacted(s.live_window, event), s.live_window.failures);
      return withRecords({ ...s, live_window }, recordsInWindow(s.tool_calls, live_window));
    }
    case "usage":
      // A priced call is spent against the budget too (protocol-additions §22).
      return s.budget !== undefined && event.cost !== undefined
        ? {
            ...s,
            usage: addUsage(s.usage, event),
            budget: { ...s.budget, spent_usd: s.budget.spent_usd + event.cost },
          }
        : { ...s, usage: addUsage(s.usage, event) };
    case "permission_request":
    case "ui_request": {
      const others = s.pending_requests.filter((r) => r.request_id !== event.request_id);
      return { ...s, pending_requests: [...others, withoutSeq(event)] };
    }
    case "permission_resolved":
    case "ui_resolved":
      return {
        ...s,
        pending_requests: s.pending_requests.filter((r) => r.request_id !== event.request_id),
      };
    case "mode_changed":
      return { ...s, mode: event.mode };
    case "sandbox_changed":
      return { ...s, sandbox: event.sandbox };
    case "budget_changed":
      return { ...s, budget: event.budget };
    case "mcp_status":
      return { ...s, mcp_servers: event.servers };
    case "model_changed": {
      const { reasoning_level: _old, ...rest } = s;
      return {
        ...rest,
        model: event.active,
        capabilities: event.capabilities ?? s.capabilities,
        ...(event.reasoning_level !== undefined ? { reasoning_level: event.reasoning_level } : {}),
      };
    }
    case "reasoning_level_changed":
      return s.model === undefined || s.model.id === event.model.id
        ? { ...s, reasoning_level: event.active }
        : s;
    case "error":
    case "queue_dropped":
    // A read the client serves within seconds or not at all: no state a later client could act on.
    case "client_read_request":
    // The daemon link's traffic (protocol-additions §27) is between the runtime and its daemon only.
    case "daemon_request":
    case "daemon_cancel":
      return s;
  }
}

/** The snapshot without a retry in progress (the same object when there is none). */
function withoutRetry(s: AgentSnapshot): AgentSnapshot {
  if (s.retry === undefined) return s;
  const { retry: _done, ...rest } = s;
  return rest;
}

/** No records is no field, so a replayed snapshot equals one rebuilt from `sync`. */
function withRecords(s: AgentSnapshot, records: ToolCallRecord[]): AgentSnapshot {
  if (records.length > 0) return { ...s, tool_calls: records };
  const { tool_calls: _none, ...rest } = s;
  return rest;
}

function addUsage(total: Usage, call: UsageEvent): Usage {
  const sum: Usage = {
    input: total.input + call.input,
    output: total.output + call.output,
    cache_read: (total.cache_read ?? 0) + (call.cache_read ?? 0),
    cache_write: (total.cache_write ?? 0) + (call.cache_write ?? 0),
  };
  // An unpriced call leaves the cost unknown: it never counts as 0 (protocol-additions §22).
  if (total.cost !== undefined || call.cost !== undefined) sum.cost = (total.cost ?? 0) + (call.cost ?? 0);
  if (total.cost_unknown === true || call.cost_unknown === true) sum.cost_unknown = true;
  if (call.context_tokens !== undefined) sum.context_tokens = call.context_tokens;
  const model = call.model ?? total.model;
  if (model !== undefined) sum.model = model;
  return sum;
}
