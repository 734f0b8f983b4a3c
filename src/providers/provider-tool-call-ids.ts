/**
 * The ids the model server gave the tool calls of a history. The runtime names each call with
 * an id of its own (src/agent/turn/assistant-builder.ts); the model must get its own id back on
 * the call and on the result that answers it. A call without `provider_id` (a session written
 * before the runtime minted ids) was named by the server: its `id` is both.
 */
import type { Message } from "../types/messages.ts";

export type ProviderToolCallId = (toolCallId: string) => string;

export function providerToolCallIds(messages: readonly Message[]): ProviderToolCallId {
  const byId = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const block of message.content) {
      if (block.type === "tool_call" && block.provider_id !== undefined)
        byId.set(block.id, block.provider_id);
    }
  }
  return (toolCallId) => byId.get(toolCallId) ?? toolCallId;
}
