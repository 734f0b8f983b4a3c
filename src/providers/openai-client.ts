/**
 * The OpenAI SDK client both OpenAI wire formats use, loaded on the first call (start-up
 * stays fast). Retries are ours (retry.ts) and every request goes through the timed fetch.
 */
import type OpenAI from "openai";
import type { ProviderConfig } from "./provider-config.ts";
import type { FetchFunction } from "./timed-fetch.ts";

export async function openAIClient(config: ProviderConfig, fetch: FetchFunction): Promise<OpenAI> {
  const { default: OpenAISdk } = await import("openai");
  return new OpenAISdk({ apiKey: config.apiKey, baseURL: config.baseUrl, maxRetries: 0, fetch });
}
