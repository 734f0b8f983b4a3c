/**
 * The provider-facing text of a tool result (docs/protocol-additions.md §1: the model sees the exit
 * code as `[exit code: N]`, injected here at the history seam rather than stored in `content`).
 */
import type { ToolResultBlock } from "../types/messages.ts";

export function toolResultText(block: ToolResultBlock): string {
  const c = block.content;
  let text: string;
  if (c.kind === "text") text = c.text;
  else if (c.kind === "error") text = c.message;
  else text = typeof c.value === "string" ? c.value : (JSON.stringify(c.value, null, 2) ?? "null");
  if (block.exit_code !== undefined) text = `${text}\n[exit code: ${block.exit_code}]`;
  return text;
}

/** `data:` URL for APIs that take images as URLs (OpenAI). */
export function imageDataUrl(image: { data: string; mime_type: string }): string {
  return `data:${image.mime_type};base64,${image.data}`;
}
