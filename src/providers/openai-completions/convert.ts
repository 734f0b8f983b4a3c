/** Our `Message[]` → Chat Completions `messages` (pure; no SDK at runtime). */
import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from "openai/resources/chat/completions";
import type { Image, Message } from "../../types/messages.ts";
import { convertUserMessage, type OpenAIUserShapes } from "../openai-user-message.ts";
import { type ProviderToolCallId, providerToolCallIds } from "../provider-tool-call-ids.ts";
import { imageDataUrl } from "../tool-result-text.ts";

function imagePart(image: Pick<Image, "data" | "mime_type">): ChatCompletionContentPart {
  return { type: "image_url", image_url: { url: imageDataUrl(image) } };
}

function userContent(parts: ChatCompletionContentPart[]): string | ChatCompletionContentPart[] {
  // Plain strings are the most widely supported shape among OpenAI-compatible servers.
  if (parts.every((p) => p.type === "text"))
    return parts.map((p) => (p.type === "text" ? p.text : "")).join("\n");
  return parts;
}

const USER_SHAPES: OpenAIUserShapes<ChatCompletionContentPart, ChatCompletionMessageParam> = {
  toolOutput: (callId, text) => ({ role: "tool", tool_call_id: callId, content: text }),
  text: (text) => ({ type: "text", text }),
  image: imagePart,
  user: (parts) => ({ role: "user", content: userContent(parts) }),
};

function convertAssistant(
  message: Message,
  providerId: ProviderToolCallId,
  out: ChatCompletionMessageParam[],
): void {
  const text: string[] = [];
  const toolCalls: ChatCompletionMessageToolCall[] = [];
  for (const block of message.content) {
    if (block.type === "text") text.push(block.text);
    else if (block.type === "tool_call") {
      toolCalls.push({
        id: providerId(block.id),
        type: "function",
        function: { name: block.name, arguments: JSON.stringify(block.args) },
      });
    }
    // Thinking is not replayed: Chat Completions has no input slot for it.
  }
  const content = text.join("");
  if (!content && toolCalls.length === 0) return;
  out.push({
    role: "assistant",
    content: content || null,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  });
}

export function toChatMessages(system: string, messages: Message[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (system) out.push({ role: "system", content: system });
  const providerId = providerToolCallIds(messages);
  for (const message of messages) {
    if (message.role === "user") convertUserMessage(message, USER_SHAPES, providerId, out);
    else convertAssistant(message, providerId, out);
  }
  return out;
}
