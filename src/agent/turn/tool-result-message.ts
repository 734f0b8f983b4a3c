/**
 * The one way a tool outcome becomes history and an event: the user message holding its
 * `tool_result` block (persisted, part of the live window) and the `tool_result` event that
 * names that message, so every client's snapshot adds the same message.
 */
import type { ToolResult } from "../../contracts/tool.ts";
import type { Message } from "../../types/shared.ts";
import type { ToolResultEvent } from "../../types/stream-events.ts";

export function toolResultMessage(messageId: string, toolCallId: string, result: ToolResult): Message {
  return {
    id: messageId,
    role: "user",
    content: [
      {
        type: "tool_result",
        tool_call_id: toolCallId,
        content: result.content,
        is_error: result.is_error,
        ...(result.exit_code !== undefined ? { exit_code: result.exit_code } : {}),
        ...(result.images?.length ? { images: result.images } : {}),
      },
    ],
  };
}

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
  };
}
