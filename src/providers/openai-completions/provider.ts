/** OpenAI Chat Completions provider; also serves OpenAI-compatible servers (Ollama, vLLM, llama.cpp…). */
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
} from "openai/resources/chat/completions";
import type { Provider, ProviderEvent, ProviderRequest } from "../../contracts/provider.ts";
import { authHint } from "../auth-hint.ts";
import { StreamEndedEarlyError } from "../classify-error.ts";
import { openAIClient } from "../openai-client.ts";
import { reasoningEffort } from "../openai-reasoning-effort.ts";
import { prepareClient } from "../prepare-client.ts";
import type { ProviderConfig } from "../provider-config.ts";
import { describeEndpoint, streamWithRetries } from "../retry.ts";
import { jsonEvents } from "../sse-stream.ts";
import { withTimeouts } from "../timed-fetch.ts";
import { toChatMessages } from "./convert.ts";
import { translateChatStream } from "./events.ts";

function isOfficialOpenAI(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === "api.openai.com";
  } catch {
    return false;
  }
}

export function buildChatParams(
  config: Pick<ProviderConfig, "spec" | "baseUrl">,
  request: ProviderRequest,
): ChatCompletionCreateParamsStreaming {
  const { spec } = config;
  const maxTokens = Math.min(request.maxOutputTokens ?? spec.max_output, spec.max_output);
  const params: ChatCompletionCreateParamsStreaming = {
    model: request.model,
    messages: toChatMessages(request.system, request.messages),
    stream: true,
    stream_options: { include_usage: true },
  };
  // OpenAI's reasoning models reject `max_tokens`; many compatible servers only know it.
  if (isOfficialOpenAI(config.baseUrl)) params.max_completion_tokens = maxTokens;
  else params.max_tokens = maxTokens;
  if (request.reasoning && spec.reasoning_levels?.length) {
    params.reasoning_effort = reasoningEffort(request.reasoning);
  }
  if (request.tools.length > 0) {
    params.tools = request.tools.map((t) => ({
      type: "function" as const,
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
  }
  return params;
}

/** A chunk carries choices or, last, the usage; anything else is not one (an `{ error }` is thrown). */
function isChatChunk(value: Record<string, unknown>): value is Record<string, unknown> & ChatCompletionChunk {
  return Array.isArray(value.choices) || typeof value.usage === "object";
}

export function createOpenAICompletionsProvider(config: ProviderConfig): Provider {
  const endpoint = describeEndpoint(config.spec, config.baseUrl);
  return {
    api: "openai-completions",
    prepare: () => prepareClient(() => openAIClient(config), config.baseUrl),
    stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
      return streamWithRetries(
        request.signal,
        config.retry,
        { endpoint, authHint: authHint(config.spec) },
        (signal) =>
          withTimeouts(signal, config.timeouts, async function* (headers) {
            const client = await openAIClient(config);
            // The SDK sends the request and throws its errors; the body is read by sse-stream.
            const response = await client.chat.completions
              .create(buildChatParams(config, request), { signal, headers })
              .asResponse();
            if (!response.body) throw new StreamEndedEarlyError();
            yield* translateChatStream(jsonEvents(response.body, isChatChunk));
          }),
      );
    },
  };
}
