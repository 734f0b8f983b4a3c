/**
 * The Anthropic SDK client: loaded on the first call (start-up stays fast), then one per
 * base URL and key (sdk-clients.ts). Retries are ours (retry.ts) and every request goes
 * through its attempt's timed fetch (attempt-fetch.ts).
 */
import type Anthropic from "@anthropic-ai/sdk";
import { routedFetch } from "../attempt-fetch.ts";
import type { ProviderConfig } from "../provider-config.ts";
import { SdkClients } from "../sdk-clients.ts";

let AnthropicSdk: typeof Anthropic | undefined;
const clients = new SdkClients<Anthropic>();

export async function anthropicClient(
  config: Pick<ProviderConfig, "baseUrl" | "apiKey">,
): Promise<Anthropic> {
  AnthropicSdk ??= (await import("@anthropic-ai/sdk")).default;
  const Sdk = AnthropicSdk;
  return clients.get(
    config,
    () =>
      new Sdk({
        apiKey: config.apiKey,
        authToken: null,
        baseURL: config.baseUrl,
        maxRetries: 0,
        fetch: routedFetch,
      }),
  );
}
