/**
 * One SDK client per configuration for the life of the process. Building a client costs
 * ~0.3 ms, and the SDK's request code runs warmer on a client it has seen before (a new one
 * per call made each of a turn's requests 0.5–1 ms slower). The key is everything a client
 * is built from; timeouts and retries are not in it (they are per attempt: timed-fetch.ts,
 * retry.ts). A few configurations are kept (model switches back and forth), oldest dropped.
 */
import type { ProviderConfig } from "./provider-config.ts";

export const MAX_CLIENTS_PER_SDK = 8;

export class SdkClients<Client> {
  private readonly clients = new Map<string, Client>();

  /** The client for this base URL and key, built by `build` the first time. */
  get(config: Pick<ProviderConfig, "baseUrl" | "apiKey">, build: () => Client): Client {
    const key = JSON.stringify([config.baseUrl, config.apiKey]);
    const found = this.clients.get(key);
    if (found !== undefined) return found;
    const client = build();
    this.clients.set(key, client);
    if (this.clients.size > MAX_CLIENTS_PER_SDK) {
      const oldest = this.clients.keys().next();
      if (!oldest.done) this.clients.delete(oldest.value);
    }
    return client;
  }

  get size(): number {
    return this.clients.size;
  }
}
