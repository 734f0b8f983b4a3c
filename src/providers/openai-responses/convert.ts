/** Our `Message[]` → Responses API `input` items (pure; no SDK at runtime). */
import type { ResponseInputContent, ResponseInputItem } from "openai/resources/responses/responses";
import type { Image, Message } from "../../types/shared.ts";
import { imageDataUrl, toolResultText } from "../tool-result-text.ts";

function imageContent(image: Pick<Image, "data" | "mime_type">): ResponseInputContent {
  return { type: "input_image", image_url: imageDataUrl(image), detail: "auto" };
}

function convertUser(message: Message, out: ResponseInputItem[]): void {
  const content: ResponseInputContent[] = [];
  const toolImages: ResponseInputContent[] = [];
  for (const block of message.content) {
    if (block.type === "tool_result") {
      out.push({ type: "function_call_output", call_id: block.tool_call_id, output: toolResultText(block) });
      for (const image of block.images ?? []) toolImages.push(imageContent(image));
    } else if (block.type === "text") {
      if (block.text) content.push({ type: "input_text", text: block.text });
    } else if (block.type === "image") {
      content.push(imageContent(block));
    }
  }
  if (toolImages.length > 0) {
    out.push({
      role: "user",
      content: [{ type: "input_text", text: "Images from the tool results above:" }, ...toolImages],
    });
  }
  if (content.length > 0) out.push({ role: "user", content });
}

function convertAssistant(message: Message, out: ResponseInputItem[]): void {
  for (const block of message.content) {
    if (block.type === "text" && block.text) {
      out.push({ role: "assistant", content: block.text });
    } else if (block.type === "tool_call") {
      out.push({
        type: "function_call",
        call_id: block.id,
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
  for (const message of messages) {
    if (message.role === "user") convertUser(message, out);
    else convertAssistant(message, out);
  }
  return out;
}
