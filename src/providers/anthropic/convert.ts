/** Our `Message[]` → Anthropic Messages API `messages` (pure; no SDK at runtime). */
import type {
  Base64ImageSource,
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import type { ModelSpec } from "../../contracts/provider.ts";
import type { ContentBlock, ImageBlock, Message } from "../../types/messages.ts";
import { type ProviderToolCallId, providerToolCallIds } from "../provider-tool-call-ids.ts";
import { toolResultText } from "../tool-result-text.ts";

type ImageMediaType = Base64ImageSource["media_type"];

/** Every image type the API takes, keyed by the SDK's own union: a type it adds must be listed here. */
const IMAGE_MEDIA_TYPES: Record<ImageMediaType, true> = {
  "image/jpeg": true,
  "image/png": true,
  "image/gif": true,
  "image/webp": true,
};

function isImageMediaType(mimeType: string): mimeType is ImageMediaType {
  return Object.hasOwn(IMAGE_MEDIA_TYPES, mimeType);
}

/**
 * An image as the API takes it; one of a type it refuses (an MCP tool's SVG, say) is a note
 * in its place: sent as it is, the request would fail with a 400 on this and every later turn,
 * since the image stays in the conversation.
 */
function imageParam(image: Pick<ImageBlock, "data" | "mime_type">): ImageBlockParam | TextBlockParam {
  const mediaType = image.mime_type;
  if (isImageMediaType(mediaType))
    return { type: "image", source: { type: "base64", media_type: mediaType, data: image.data } };
  const accepted = Object.keys(IMAGE_MEDIA_TYPES).join(", ");
  return {
    type: "text",
    text: `[a ${mediaType} image was left out: the Anthropic Messages API takes only ${accepted}]`,
  };
}

function convertBlock(
  block: ContentBlock,
  role: Message["role"],
  providerId: ProviderToolCallId,
): ContentBlockParam | undefined {
  switch (block.type) {
    case "text":
      // The API rejects empty text blocks.
      return block.text.length > 0 ? { type: "text", text: block.text } : undefined;
    case "image":
      return imageParam(block);
    case "thinking":
      // Only signed thinking can be replayed; unsigned thinking (another provider's) is dropped.
      if (role !== "assistant" || !block.signature) return undefined;
      return { type: "thinking", thinking: block.text, signature: block.signature };
    case "tool_call":
      return { type: "tool_use", id: providerId(block.id), name: block.name, input: block.args };
    case "tool_result": {
      const text = toolResultText(block);
      const content: (TextBlockParam | ImageBlockParam)[] = [{ type: "text", text: text || "(no output)" }];
      for (const image of block.images ?? []) content.push(imageParam(image));
      const result: ToolResultBlockParam = {
        type: "tool_result",
        tool_use_id: providerId(block.tool_call_id),
        content,
      };
      if (block.is_error) result.is_error = true;
      return result;
    }
  }
}

/**
 * Consecutive messages of the same role are merged (tool-result messages after one
 * assistant message become one user message of tool_result blocks, as the API requires).
 * Within a merged user message tool_result blocks come first, which the API also requires.
 */
export function toAnthropicMessages(messages: Message[]): MessageParam[] {
  const out: { role: "user" | "assistant"; content: ContentBlockParam[] }[] = [];
  const providerId = providerToolCallIds(messages);
  for (const message of messages) {
    const blocks = message.content
      .map((b) => convertBlock(b, message.role, providerId))
      .filter((b): b is ContentBlockParam => b !== undefined);
    if (blocks.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === message.role) last.content.push(...blocks);
    else out.push({ role: message.role, content: blocks });
  }
  for (const m of out) {
    if (m.role === "user") {
      const results = m.content.filter((b) => b.type === "tool_result");
      if (results.length > 0) m.content = [...results, ...m.content.filter((b) => b.type !== "tool_result")];
    }
  }
  markCacheBreakpoint(out);
  return out;
}

/** Prompt caching: mark the final block so the next call can reuse the whole prefix. */
function markCacheBreakpoint(messages: { content: ContentBlockParam[] }[]): void {
  const lastMessage = messages[messages.length - 1];
  const lastBlock = lastMessage?.content[lastMessage.content.length - 1];
  if (
    lastBlock &&
    (lastBlock.type === "text" || lastBlock.type === "tool_result" || lastBlock.type === "image")
  ) {
    lastBlock.cache_control = { type: "ephemeral" };
  }
}

/** Thinking budget per reasoning level id (Anthropic extended thinking). */
const THINKING_BUDGETS: Record<string, number> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 24576,
  xhigh: 32000,
  max: 32000,
};

type ThinkingParams = Pick<MessageCreateParamsStreaming, "max_tokens" | "thinking" | "output_config">;
type Effort = NonNullable<NonNullable<MessageCreateParamsStreaming["output_config"]>["effort"]>;
const EFFORTS = new Set<string>(["low", "medium", "high", "xhigh", "max"] satisfies Effort[]);

function isEffort(level: string): level is Effort {
  return EFFORTS.has(level);
}

/**
 * `max_tokens` and the optional thinking config for a reasoning level. With a budget
 * ("budget"), it must be at least 1024 and below max_tokens; with "adaptive", the level is
 * the effort. Levels "off"/"none" (or unknown) send no thinking config.
 */
export function thinkingConfig(
  level: string | undefined,
  maxTokens: number,
  style: ModelSpec["thinking"] = "budget",
): ThinkingParams {
  if (level === undefined) return { max_tokens: maxTokens };
  if (style === "adaptive") {
    if (!isEffort(level)) return { max_tokens: maxTokens };
    // "summarized" keeps thinking (and text between tool calls) visible to the client.
    return {
      max_tokens: maxTokens,
      thinking: { type: "adaptive", display: "summarized" },
      output_config: { effort: level },
    };
  }
  const wanted = THINKING_BUDGETS[level];
  if (wanted === undefined) return { max_tokens: maxTokens };
  const budget = Math.min(wanted, maxTokens - 1024);
  if (budget < 1024) return { max_tokens: maxTokens };
  return { max_tokens: maxTokens, thinking: { type: "enabled", budget_tokens: budget } };
}
