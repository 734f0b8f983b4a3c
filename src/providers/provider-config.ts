/** What `createProvider` hands each API's provider: the model, credentials and call limits. */
import type { ModelSpec, ProviderTimeouts } from "../contracts/provider.ts";
import type { RetryPolicy } from "./retry.ts";

export interface ProviderConfig {
  spec: ModelSpec;
  apiKey: string;
  /** As the SDK wants it: Anthropic without `/v1`, OpenAI with it. */
  baseUrl: string;
  retry: RetryPolicy;
  timeouts: ProviderTimeouts;
}
