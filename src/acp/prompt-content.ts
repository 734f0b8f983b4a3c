/**
 * An ACP prompt (content blocks) as a Shard `prompt`: text as it is, images as prompt images,
 * a resource link as a line naming the file (the model reads it with its own tools), and an
 * embedded resource (the editor's selection or unsaved buffer) as its text in a tagged block.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { RequestError } from "@agentclientprotocol/sdk";
import type { Image } from "../types/messages.ts";

export interface ShardPrompt {
  message: string;
  images: Image[];
}

export function shardPrompt(blocks: readonly acp.ContentBlock[]): ShardPrompt {
  const parts: string[] = [];
  const images: Image[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "image":
        images.push({ type: "image", data: block.data, mime_type: block.mimeType });
        break;
      case "resource_link":
        parts.push(`[${block.title ?? block.name}](${block.uri})`);
        break;
      case "resource": {
        const resource = block.resource;
        if ("text" in resource) parts.push(`<context uri="${resource.uri}">\n${resource.text}\n</context>`);
        else parts.push(`[binary resource](${resource.uri})`);
        break;
      }
      case "audio":
        throw RequestError.invalidParams(
          undefined,
          "audio prompts are not supported (promptCapabilities.audio is false)",
        );
    }
  }
  const message = parts.join("\n\n");
  if (message.trim() === "" && images.length === 0)
    throw RequestError.invalidParams(undefined, "the prompt is empty");
  return { message, images };
}
