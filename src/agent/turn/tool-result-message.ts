/**
 * The one way a tool outcome becomes an event: the `tool_result` event that names the message
 * holding its `tool_result` block. The runtime persists that message as the snapshot's
 * `toolResultMessage` projects it from this event, so history and every client's snapshot
 * hold the same message by construction.
 */
import type { ToolResult } from "../../contracts/tool.ts";
import type { ToolResultEvent } from "../../types/stream-events.ts";

export function toolResultEvent(messageId: string, toolCallId: string, result: ToolResult): ToolResultEvent {
  return {
    type: "tool_result",
    tool_call_id: toolCallId,
    content: result.content,
    is_error: result.is_error,
    message_id: messageId,
    ...(result.exit_code !== undefined ? { exit_code: result.exit_code } : {}),
    ...(result.duration_ms !== undefined ? { duration_ms: result.duration_ms } : {}),
    ...(result.render ? { render: result.render } : {}),
    ...(result.images?.length ? { images: result.images } : {}),
    ...(result.sandbox !== undefined ? { sandbox: result.sandbox } : {}),
  };
}
