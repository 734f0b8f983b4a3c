/**
 * How conversation events change the live window: a completed message is added (or replaces
 * its earlier copy), a tool result adds its tool-result message, and a compaction swaps the
 * summarized span for its summary message.
 */
import type { LiveWindow } from "../types/agent-events.ts";
import type { Message } from "../types/messages.ts";
import type { CompactionEvent, ToolResultEvent } from "../types/stream-events.ts";

export function withMessage(window: LiveWindow, message: Message): LiveWindow {
  const messages = window.messages.slice();
  const at = lastIndexOf(messages, message.id);
  if (at >= 0) messages[at] = message;
  else messages.push(message);
  return { ...window, messages };
}

/** The user message of one tool_result block, exactly as the runtime stores it. */
export function toolResultMessage(event: ToolResultEvent, messageId: string): Message {
  return {
    id: messageId,
    role: "user",
    content: [
      {
        type: "tool_result",
        tool_call_id: event.tool_call_id,
        content: event.content,
        is_error: event.is_error,
        ...(event.exit_code !== undefined ? { exit_code: event.exit_code } : {}),
        ...(event.images?.length ? { images: event.images } : {}),
      },
    ],
  };
}

/** A compaction without its summary message (an older runtime) leaves the window as it was. */
export function compacted(window: LiveWindow, event: CompactionEvent): LiveWindow {
  if (!event.summary_message) return window;
  const keptFrom =
    event.first_kept_message_id === undefined
      ? window.messages.length
      : lastIndexOf(window.messages, event.first_kept_message_id);
  const kept = keptFrom >= 0 ? window.messages.slice(keptFrom) : [];
  return {
    messages: [event.summary_message, ...kept],
    compaction_index: event.index,
    compaction_tokens: { before: event.tokens_before, after: event.tokens_after },
  };
}

function lastIndexOf(messages: readonly Message[], id: string): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.id === id) return i;
  return -1;
}
