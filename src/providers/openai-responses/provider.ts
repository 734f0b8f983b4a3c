/** OpenAI Responses API provider (stateless: `store: false`, full history every call). */
import type {
  ResponseCreateParamsStreaming,
  ResponseStreamEvent,
} from "openai/resources/responses/responses";
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
import { toResponsesInput } from "./convert.ts";
import { translateResponsesStream } from "./events.ts";

function isResponsesEvent(
  value: Record<string, unknown>,
): value is Record<string, unknown> & ResponseStreamEvent {
  return typeof value.type === "string";
}

export function buildResponsesParams(
  config: Pick<ProviderConfig, "spec">,
  request: ProviderRequest,
): ResponseCreateParamsStreaming {
  const { spec } = config;
  const params: ResponseCreateParamsStreaming = {
    model: request.model,
    input: toResponsesInput(request.messages),
    stream: true,
    store: false,
    max_output_tokens: Math.min(request.maxOutputTokens ?? spec.max_output, spec.max_output),
  };
  if (request.system) params.instructions = request.system;
  if (request.reasoning && spec.reasoning_levels?.length) {
    params.reasoning = {
      effort: reasoningEffort(request.reasoning),
      summary: "auto",
    };
  }
  if (request.tools.length > 0) {
    params.tools = request.tools.map((t) => ({
      type: "function" as const,
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      strict: false,
    }));
  }
  return params;
}

export function createOpenAIResponsesProvider(config: ProviderConfig): Provider {
  const endpoint = describeEndpoint(config.spec, config.baseUrl);
  return {
    api: "openai-responses",
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
            const response = await client.responses
              .create(buildResponsesParams(config, request), { signal, headers })
              .asResponse();
            if (!response.body) throw new StreamEndedEarlyError();
            yield* translateResponsesStream(jsonEvents(response.body, isResponsesEvent));
          }),
      );
    },
  };
}
