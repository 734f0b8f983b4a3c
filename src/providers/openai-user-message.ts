/**
 * A user message for either OpenAI API (Chat Completions or Responses). Both take tool
 * results as separate items that cannot carry images, so the images follow as one user
 * message, then the user's own text and images. The APIs differ only in item shapes.
 */
import type { Image, Message } from "../types/messages.ts";
import type { ProviderToolCallId } from "./provider-tool-call-ids.ts";
import { toolResultText } from "./tool-result-text.ts";

export interface OpenAIUserShapes<Part, Item> {
  toolOutput(callId: string, text: string): Item;
  text(text: string): Part;
  image(image: Pick<Image, "data" | "mime_type">): Part;
  user(parts: Part[]): Item;
}

export function convertUserMessage<Part, Item>(
  message: Message,
  shapes: OpenAIUserShapes<Part, Item>,
  providerId: ProviderToolCallId,
  out: Item[],
): void {
  const parts: Part[] = [];
  const toolImages: Part[] = [];
  for (const block of message.content) {
    if (block.type === "tool_result") {
      out.push(shapes.toolOutput(providerId(block.tool_call_id), toolResultText(block)));
      for (const image of block.images ?? []) toolImages.push(shapes.image(image));
    } else if (block.type === "text") {
      if (block.text) parts.push(shapes.text(block.text));
    } else if (block.type === "image") {
      parts.push(shapes.image(block));
    }
  }
  if (toolImages.length > 0) {
    out.push(shapes.user([shapes.text("Images from the tool results above:"), ...toolImages]));
  }
  if (parts.length > 0) out.push(shapes.user(parts));
}
