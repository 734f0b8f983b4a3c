/** A prompt, steer or follow-up as the user sent it, and the message the model sees. */
import type { Image, Message } from "../../types/messages.ts";

export interface UserInput {
  message: string;
  images?: Image[];
}

export function userMessage(input: UserInput, id: string): Message {
  const content: Message["content"] = [];
  if (input.message !== "") content.push({ type: "text", text: input.message });
  for (const img of input.images ?? [])
    content.push({ type: "image", data: img.data, mime_type: img.mime_type });
  return { id, role: "user", content, ts: Date.now() };
}
