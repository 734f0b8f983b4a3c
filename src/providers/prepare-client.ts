/**
 * A provider's `prepare`: start loading the SDK and building the client, and open the
 * connection to the server (Bun's `fetch.preconnect`: DNS, TCP and TLS, into the pool the
 * SDK's requests use), so a turn's first call does not wait for them one after the other.
 * A server is preconnected once per process: later requests find the pool's keep-alive
 * connection, and a connection opened at every turn would cost a TLS handshake each time.
 * Behind a proxy the request does not use a direct connection, so none is opened.
 */
const PROXY_VARIABLES = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"];
const MAX_PRECONNECTED = 64;
const preconnected = new Set<string>();

export function prepareClient(client: () => Promise<unknown>, baseUrl: string): void {
  // A failure to load is reported by the call that awaits the client.
  client().catch(() => {});
  if (preconnected.has(baseUrl) || preconnected.size >= MAX_PRECONNECTED) return;
  preconnected.add(baseUrl);
  if (PROXY_VARIABLES.some((name) => process.env[name])) return;
  try {
    fetch.preconnect(baseUrl);
  } catch {
    // Only a hint: the request connects by itself.
  }
}
