/**
 * A `fetch` for the SDKs that enforces the provider timeouts (the SDKs only know one total
 * timeout, far too long for a stalled stream and too short for a slow local model):
 *
 * - first byte: the response headers must arrive within `firstByteMs`;
 * - connect: when the headers are late by `connectMs`, a separate TCP connection to the
 *   same host checks that the server is reachable at all, so an unreachable host fails in
 *   seconds instead of after the long first-byte wait (and a healthy request pays nothing);
 * - idle: each body chunk must follow the previous one within `idleMs`.
 *
 * A timeout rejects with `ProviderTimeoutError`; the caller's abort still cuts every wait
 * at once, because everything hangs off one AbortController.
 */
import { connect } from "node:net";
import type { ProviderTimeouts } from "../contracts/provider.ts";
import { type FetchFunction, routeAttempt } from "./attempt-fetch.ts";
import { ProviderTimeoutError } from "./timeouts.ts";

/**
 * Runs one provider attempt with a timed fetch, which the shared SDK client reaches through
 * the request headers `attempt` is given (attempt-fetch.ts). The SDKs replace an abort reason
 * with their own "Request timed out." or "Connection error.", so whatever the attempt throws
 * after a timeout is replaced by the timeout itself, which says which wait ran out and for
 * how long.
 */
export async function* withTimeouts<T>(
  signal: AbortSignal,
  timeouts: ProviderTimeouts,
  attempt: (headers: Record<string, string>) => AsyncIterable<T>,
): AsyncGenerator<T> {
  let timedOut: ProviderTimeoutError | undefined;
  const fetcher = timedFetch(
    timeouts,
    (error) => {
      timedOut ??= error;
    },
    signal,
  );
  const route = routeAttempt(fetcher);
  try {
    yield* attempt(route.headers);
  } catch (err) {
    throw timedOut ?? err;
  } finally {
    route.release();
  }
}

/**
 * `attemptSignal` is the attempt's own signal: the SDKs do not always pass the caller's
 * abort on to a body that is already streaming, so it is linked here directly.
 */
export function timedFetch(
  timeouts: ProviderTimeouts,
  onTimeout: (error: ProviderTimeoutError) => void = () => {},
  attemptSignal?: AbortSignal,
  inner: FetchFunction = fetch,
): FetchFunction {
  return async (input, init) => {
    const controller = new AbortController();
    for (const outer of [init?.signal, attemptSignal]) {
      if (!outer) continue;
      if (outer.aborted) controller.abort(outer.reason);
      else outer.addEventListener("abort", () => controller.abort(outer.reason), { once: true });
    }
    const fail = (error: ProviderTimeoutError) => {
      if (controller.signal.aborted) return;
      onTimeout(error);
      controller.abort(error);
    };
    const timers: ReturnType<typeof setTimeout>[] = [];
    if (timeouts.firstByteMs > 0) {
      timers.push(
        setTimeout(
          () => fail(new ProviderTimeoutError("first_byte", timeouts.firstByteMs)),
          timeouts.firstByteMs,
        ),
      );
    }
    if (timeouts.connectMs > 0 && (timeouts.firstByteMs === 0 || timeouts.connectMs < timeouts.firstByteMs)) {
      timers.push(
        setTimeout(() => {
          void canConnect(requestUrl(input), timeouts.connectMs, controller.signal).then((ok) => {
            if (!ok) fail(new ProviderTimeoutError("connect", timeouts.connectMs));
          });
        }, timeouts.connectMs),
      );
    }
    try {
      const response = await inner(input, { ...init, signal: controller.signal });
      if (!response.body) return response;
      return new Response(idleGuard(response.body, timeouts.idleMs, controller.signal, fail), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (err) {
      throw timeoutReason(controller.signal) ?? err;
    } finally {
      for (const timer of timers) clearTimeout(timer);
    }
  };
}

function timeoutReason(signal: AbortSignal): ProviderTimeoutError | undefined {
  return signal.reason instanceof ProviderTimeoutError ? signal.reason : undefined;
}
function requestUrl(input: string | URL | Request): URL {
  return new URL(input instanceof Request ? input.url : input);
}

/**
 * Passes body chunks through; a gap longer than `idleMs` (0: no limit) errors the stream.
 * An abort (the caller's, or a timeout) ends a pending read at once: Bun does not error a
 * body that is already streaming when its request's signal aborts.
 */
function idleGuard(
  body: ReadableStream<Uint8Array>,
  idleMs: number,
  signal: AbortSignal,
  fail: (error: ProviderTimeoutError) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  signal.addEventListener("abort", () => reader.cancel(signal.reason).catch(() => {}), { once: true });
  return new ReadableStream<Uint8Array>(
    {
      async pull(out) {
        const timer =
          idleMs > 0 ? setTimeout(() => fail(new ProviderTimeoutError("idle", idleMs)), idleMs) : undefined;
        try {
          const chunk = await reader.read();
          if (signal.aborted) out.error(signal.reason);
          else if (chunk.done) out.close();
          else out.enqueue(chunk.value);
        } catch (err) {
          out.error(signal.aborted ? signal.reason : err);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    // Pull only when the consumer reads, so a slow consumer is never mistaken for a slow server.
    { highWaterMark: 0 },
  );
}

/**
 * True when a TCP connection to the URL's host and port opens within `ms`. node:net rather
 * than Bun.connect, because a connect still pending must be destroyable: an unreachable host
 * would otherwise keep the process alive until the kernel gives up (minutes).
 */
function canConnect(url: URL, ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(true);
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.unref();
    const settle = (ok: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      socket.destroy();
      resolve(ok);
    };
    const onAbort = () => settle(true);
    const timer = setTimeout(() => settle(false), ms);
    signal.addEventListener("abort", onAbort, { once: true });
    socket.once("connect", () => settle(true));
    socket.once("error", () => settle(false));
  });
}
