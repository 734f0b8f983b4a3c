/** Our `Message[]` → Responses API `input` items (pure; no SDK at runtime). */
import type { ResponseInputContent, ResponseInputItem } from "openai/resources/responses/responses";
import type { Image, Message } from "../../types/messages.ts";
import { convertUserMessage, type OpenAIUserShapes } from "../openai-user-message.ts";
import { type ProviderToolCallId, providerToolCallIds } from "../provider-tool-call-ids.ts";
import { imageDataUrl } from "../tool-result-text.ts";

function imageContent(image: Pick<Image, "data" | "mime_type">): ResponseInputContent {
  return { type: "input_image", image_url: imageDataUrl(image), detail: "auto" };
}

const USER_SHAPES: OpenAIUserShapes<ResponseInputContent, ResponseInputItem> = {
  toolOutput: (callId, text) => ({ type: "function_call_output", call_id: callId, output: text }),
  text: (text) => ({ type: "input_text", text }),
  image: imageContent,
  user: (content) => ({ role: "user", content }),
};

function convertAssistant(message: Message, providerId: ProviderToolCallId, out: ResponseInputItem[]): void {
  for (const block of message.content) {
    if (block.type === "text" && block.text) {
      out.push({ role: "assistant", content: block.text });
    } else if (block.type === "tool_call") {
      out.push({
        type: "function_call",
        call_id: providerId(block.id),
        name: block.name,
        arguments: JSON.stringify(block.args),
      });
    }
    // Reasoning items are not replayed: requests are stateless (store: false) and we keep
    // no encrypted reasoning content.
  }
}

export function toResponsesInput(messages: Message[]): ResponseInputItem[] {
  const out: ResponseInputItem[] = [];
  const providerId = providerToolCallIds(messages);
  for (const message of messages) {
    if (message.role === "user") convertUserMessage(message, USER_SHAPES, providerId, out);
    else convertAssistant(message, providerId, out);
  }
  return out;
}
