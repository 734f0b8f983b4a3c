/**
 * `session/load` replays the conversation as the updates a live turn would have sent: user
 * text and images, the answer and its thinking, and every tool call with its outcome.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { Message } from "../types/messages.ts";
import { resultContent, type ToolCallView, toolCallView } from "./tool-call-view.ts";

export function historyUpdates(messages: readonly Message[], cwd: string): acp.SessionUpdate[] {
  const updates: acp.SessionUpdate[] = [];
  const calls = new Map<string, { name: string; view: ToolCallView }>();
  for (const message of messages) {
    for (const block of message.content) {
      switch (block.type) {
        case "text":
          if (block.text === "") break;
          updates.push({
            sessionUpdate: message.role === "user" ? "user_message_chunk" : "agent_message_chunk",
            content: { type: "text", text: block.text },
            messageId: message.id,
          });
          break;
        case "image":
          updates.push({
            sessionUpdate: message.role === "user" ? "user_message_chunk" : "agent_message_chunk",
            content: { type: "image", data: block.data, mimeType: block.mime_type },
            messageId: message.id,
          });
          break;
        case "thinking":
          if (block.text === "") break;
          updates.push({
            sessionUpdate: "agent_thought_chunk",
            content: { type: "text", text: block.text },
            messageId: message.id,
          });
          break;
        case "tool_call": {
          const view = toolCallView({ name: block.name, args: block.args }, cwd);
          calls.set(block.id, { name: block.name, view });
          updates.push({
            sessionUpdate: "tool_call",
            toolCallId: block.id,
            title: view.title,
            kind: view.kind,
            status: "pending",
            locations: view.locations,
            rawInput: block.args,
          });
          break;
        }
        case "tool_result": {
          const call = calls.get(block.tool_call_id);
          const failed = block.is_error === true;
          updates.push({
            sessionUpdate: "tool_call_update",
            toolCallId: block.tool_call_id,
            status: failed ? "failed" : "completed",
            content: resultContent(call?.view, call?.name, block.content, failed),
          });
          break;
        }
      }
    }
  }
  return updates;
}
