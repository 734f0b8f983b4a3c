/**
 * What Shard adds to the user's wire protocol, for the generated reference (docs/protocol.md)
 * to mark: commands say so in the command table (`addition`), events and fields here. The
 * reasons and exact rules are in docs/protocol-additions.md.
 */

/** Events that are ours alone. */
export const ADDED_EVENT_TYPES: ReadonlySet<string> = new Set([
  "tool_output",
  "queue_dropped",
  "agent_updated",
  "agent_deleted",
  "turn_failed",
  "turn_retry",
  "sandbox_changed",
  "mcp_status",
  "budget_changed",
  "client_read_request",
  "daemon_request",
  "daemon_cancel",
]);

/** Fields we add to messages of the user's protocol (`seq` on every event is ours too). */
export const ADDED_FIELDS: Readonly<Record<string, readonly string[]>> = {
  steer: ["turn_id"],
  permission_response: ["source"],
  abort: ["source"],
  turn_end: ["end_reason", "aborted_by"],
  permission_request: ["preview", "sandbox"],
  "subagent.create": ["timeout", "sandbox", "budget_usd"],
  "agent.create": [
    "ephemeral",
    "sandbox",
    "sandbox_policy",
    "network_allow",
    "budget_usd",
    "placement",
    "mcp_servers",
  ],
  error: ["data"],
  sync: [
    "session_id",
    "model",
    "reasoning_level",
    "turn_id",
    "streaming_message",
    "usage",
    "tool_calls",
    "retry",
    "sandbox",
    "mcp_servers",
    "budget",
  ],
  usage: ["cost_unknown", "turn_id"],
  tool_result: ["images", "message_id", "sandbox"],
  compaction: ["summary_message", "first_kept_message_id"],
  model_changed: ["reasoning_level"],
};

/** The broker's per-agent sequence number, on every event. */
export const ADDED_EVENT_FIELD = "seq";
