/** Anthropic Messages API provider (streaming, tools, extended thinking). */
import type { MessageCreateParamsStreaming } from "@anthropic-ai/sdk/resources/messages";
import type { ModelSpec, Provider, ProviderEvent, ProviderRequest } from "../../contracts/provider.ts";
import { type RetryPolicy, streamWithRetries } from "../retry.ts";
import { thinkingConfig, toAnthropicMessages } from "./convert.ts";
import { translateAnthropicStream } from "./events.ts";

export interface AnthropicProviderConfig {
  spec: ModelSpec;
  apiKey: string;
  baseUrl?: string;
  retry: RetryPolicy;
}

export function buildAnthropicParams(
  spec: ModelSpec,
  request: ProviderRequest,
): MessageCreateParamsStreaming {
  const maxTokens = Math.min(request.maxOutputTokens ?? spec.max_output, spec.max_output);
  const params: MessageCreateParamsStreaming = {
    model: request.model,
    messages: toAnthropicMessages(request.messages),
    stream: true,
    ...thinkingConfig(spec.reasoning_levels?.length ? request.reasoning : undefined, maxTokens),
  };
  if (request.system)
    params.system = [{ type: "text", text: request.system, cache_control: { type: "ephemeral" } }];
  if (request.tools.length > 0) {
    params.tools = request.tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: { type: "object", ...t.parameters } as { type: "object" },
    }));
  }
  return params;
}

export function createAnthropicProvider(config: AnthropicProviderConfig): Provider {
  return {
    api: "anthropic-messages",
    stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
      return streamWithRetries(request.signal, config.retry, async function* (signal) {
        const { default: Anthropic } = await import("@anthropic-ai/sdk");
        const client = new Anthropic({
          apiKey: config.apiKey,
          authToken: null,
          baseURL: config.baseUrl ?? "https://api.anthropic.com",
          maxRetries: 0,
        });
        const stream = await client.messages.create(buildAnthropicParams(config.spec, request), { signal });
        yield* translateAnthropicStream(stream);
      });
    },
  };
}
