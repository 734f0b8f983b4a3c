/**
 * The SDK clients are shared by every request with the same configuration (sdk-clients.ts),
 * while each attempt has its own timeouts and abort (timed-fetch.ts). A shared client's
 * `fetch` is `routedFetch`: an attempt names itself in one request header, which is removed
 * before the request leaves, and the request goes through that attempt's timed fetch.
 * Only attempts in progress are registered, so the table stays as small as the calls in flight.
 */

export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export const ATTEMPT_HEADER = "x-shard-attempt";

const attempts = new Map<string, FetchFunction>();
let lastAttempt = 0;

export interface RoutedAttempt {
  /** Request headers for the SDK call (its per-request `headers` option). */
  headers: Record<string, string>;
  release(): void;
}

export function routeAttempt(fetch: FetchFunction): RoutedAttempt {
  const id = String(++lastAttempt);
  attempts.set(id, fetch);
  return { headers: { [ATTEMPT_HEADER]: id }, release: () => attempts.delete(id) };
}

export const routedFetch: FetchFunction = (input, init) => {
  const headers = new Headers(init?.headers);
  const id = headers.get(ATTEMPT_HEADER);
  const fetch = id === null ? undefined : attempts.get(id);
  if (fetch === undefined) {
    return Promise.reject(new Error("a provider request was sent outside a provider attempt"));
  }
  headers.delete(ATTEMPT_HEADER);
  return fetch(input, { ...init, headers });
};
