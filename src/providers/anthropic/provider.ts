/** Anthropic Messages API provider (streaming, tools, extended thinking). */
import type {
  MessageCreateParamsStreaming,
  RawMessageStreamEvent,
} from "@anthropic-ai/sdk/resources/messages";
import type { ModelSpec, Provider, ProviderEvent, ProviderRequest } from "../../contracts/provider.ts";
import { authHint } from "../auth-hint.ts";
import { StreamEndedEarlyError } from "../classify-error.ts";
import { prepareClient } from "../prepare-client.ts";
import type { ProviderConfig } from "../provider-config.ts";
import { describeEndpoint, streamWithRetries } from "../retry.ts";
import { jsonEvents } from "../sse-stream.ts";
import { withTimeouts } from "../timed-fetch.ts";
import { anthropicClient } from "./client.ts";
import { thinkingConfig, toAnthropicMessages } from "./convert.ts";
import { translateAnthropicStream } from "./events.ts";

/** Message events and the `error` event (which the translator raises) name their `type`. */
function isMessagesEvent(
  value: Record<string, unknown>,
): value is Record<string, unknown> &
  (RawMessageStreamEvent | { type: "error"; error?: { type?: string; message?: string } }) {
  return typeof value.type === "string";
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
    ...thinkingConfig(
      spec.reasoning_levels?.length ? request.reasoning : undefined,
      maxTokens,
      spec.thinking,
    ),
  };
  if (request.system)
    params.system = [{ type: "text", text: request.system, cache_control: { type: "ephemeral" } }];
  if (request.tools.length > 0) {
    params.tools = request.tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: { ...t.parameters, type: "object" },
    }));
  }
  return params;
}

export function createAnthropicProvider(config: ProviderConfig): Provider {
  const endpoint = describeEndpoint(config.spec, config.baseUrl);
  return {
    api: "anthropic-messages",
    prepare: () => prepareClient(() => anthropicClient(config), config.baseUrl),
    stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
      return streamWithRetries(
        request.signal,
        config.retry,
        { endpoint, authHint: authHint(config.spec) },
        (signal) =>
          withTimeouts(signal, config.timeouts, async function* (headers) {
            const client = await anthropicClient(config);
            // The SDK sends the request and throws its errors; the body is read by sse-stream.
            const response = await client.messages
              .create(buildAnthropicParams(config.spec, request), { signal, headers })
              .asResponse();
            if (!response.body) throw new StreamEndedEarlyError();
            yield* translateAnthropicStream(jsonEvents(response.body, isMessagesEvent));
          }),
      );
    },
  };
}
