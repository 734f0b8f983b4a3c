/**
 * Token accounting for compaction decisions. Estimates use chars/4 (a conservative
 * average for English and code); images cost a fixed amount. Provider-reported usage is
 * exact for the prefix it covers, so it replaces the estimate there.
 */
import type { Usage } from "../../types/agent-state.ts";
import type { ContentBlock, Message } from "../../types/messages.ts";

/** Roughly what providers bill for one ~1 megapixel image. */
export const IMAGE_TOKENS = 1200;

function blockChars(block: ContentBlock): { chars: number; images: number } {
  switch (block.type) {
    case "text":
    case "thinking":
      return { chars: block.text.length, images: 0 };
    case "tool_call":
      return { chars: block.name.length + JSON.stringify(block.args).length, images: 0 };
    case "tool_result": {
      const c = block.content;
      const chars =
        c.kind === "text"
          ? c.text.length
          : c.kind === "error"
            ? c.message.length
            : JSON.stringify(c.value).length;
      return { chars, images: block.images?.length ?? 0 };
    }
    case "image":
      return { chars: 0, images: 1 };
  }
}

export function estimateTokens(message: Message): number {
  let chars = 0;
  let images = 0;
  for (const block of message.content) {
    const b = blockChars(block);
    chars += b.chars;
    images += b.images;
  }
  return Math.ceil(chars / 4) + images * IMAGE_TOKENS;
}

/** The usage of one provider call and the id of the assistant message it produced. */
export interface UsageMark {
  message_id: string;
  usage: Usage;
}

/** Tokens the provider counted for the call: its whole context plus what it generated. */
export function usageTokens(usage: Usage): number {
  return (
    usage.context_tokens ?? usage.input + (usage.cache_read ?? 0) + (usage.cache_write ?? 0) + usage.output
  );
}

/**
 * Context size of `messages` (the live window as sent to the model): the provider's usage for
 * everything up to and including `lastUsage.message_id`, estimates for the messages after it.
 * Without a usable mark every message is estimated.
 */
export function contextTokens(messages: readonly Message[], lastUsage?: UsageMark): number {
  let from = 0;
  let total = 0;
  if (lastUsage) {
    const at = messages.findLastIndex((m) => m.id === lastUsage.message_id);
    if (at >= 0) {
      total = usageTokens(lastUsage.usage);
      from = at + 1;
    }
  }
  for (const message of messages.slice(from)) total += estimateTokens(message);
  return total;
}
