/** Shared setup for provider tests: a mock server, specs pointing at it, event collection. */
import type {
  ModelSpec,
  Provider,
  ProviderApi,
  ProviderEvent,
  ProviderRequest,
} from "../../src/contracts/provider.ts";
import { createProvider } from "../../src/providers/create-provider.ts";
import type { Message } from "../../src/types/messages.ts";
import type { MockLlmServer } from "../support/mock-llm/types.ts";

export const APIS: ProviderApi[] = ["anthropic-messages", "openai-completions", "openai-responses"];

export function mockSpec(
  server: Pick<MockLlmServer, "url">,
  api: ProviderApi,
  extra: Partial<ModelSpec> = {},
): ModelSpec {
  return {
    id: `mock/${api}-model`,
    provider: "mock",
    model: `${api}-model`,
    api,
    // The Anthropic SDK appends /v1/messages itself; the OpenAI SDK expects the /v1 prefix.
    base_url: api === "anthropic-messages" ? server.url : `${server.url}/v1`,
    api_key: "test-key",
    context_window: 100_000,
    max_output: 4096,
    reasoning: false,
    cost: { input: 1, output: 2 },
    ...extra,
  };
}

export function mockProvider(
  server: Pick<MockLlmServer, "url">,
  api: ProviderApi,
  options: { maxAttempts?: number; retryBaseMs?: number; spec?: Partial<ModelSpec> } = {},
): Provider {
  const built = createProvider(
    mockSpec(server, api, options.spec),
    {},
    {
      retryBaseMs: options.retryBaseMs ?? 5,
      maxAttempts: options.maxAttempts ?? 4,
    },
  );
  if (!built.ok) throw new Error(built.message);
  return built.provider;
}

export function userText(text: string, id = "u1"): Message {
  return { id, role: "user", content: [{ type: "text", text }] };
}

export function request(overrides: Partial<ProviderRequest> = {}): ProviderRequest {
  return {
    model: "mock-model",
    system: "You are a test.",
    messages: [userText("hi")],
    tools: [],
    signal: new AbortController().signal,
    ...overrides,
  };
}

export async function collect(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

export function textOf(events: ProviderEvent[]): string {
  return events.map((e) => (e.type === "text_delta" ? e.text : "")).join("");
}

export function last(events: ProviderEvent[]): ProviderEvent | undefined {
  return events[events.length - 1];
}
