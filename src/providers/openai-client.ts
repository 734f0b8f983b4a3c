/**
 * The OpenAI SDK client both OpenAI wire formats use: loaded on the first call (start-up
 * stays fast), then one per base URL and key (sdk-clients.ts). Retries are ours (retry.ts)
 * and every request goes through its attempt's timed fetch (attempt-fetch.ts).
 */
import type OpenAI from "openai";
import { routedFetch } from "./attempt-fetch.ts";
import type { ProviderConfig } from "./provider-config.ts";
import { SdkClients } from "./sdk-clients.ts";

let OpenAISdk: typeof OpenAI | undefined;
const clients = new SdkClients<OpenAI>();

export async function openAIClient(config: Pick<ProviderConfig, "baseUrl" | "apiKey">): Promise<OpenAI> {
  OpenAISdk ??= (await import("openai")).default;
  const Sdk = OpenAISdk;
  return clients.get(
    config,
    () => new Sdk({ apiKey: config.apiKey, baseURL: config.baseUrl, maxRetries: 0, fetch: routedFetch }),
  );
}
