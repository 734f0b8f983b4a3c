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
import type { ProviderTimeouts } from "../contracts/provider.ts";
import { ProviderTimeoutError } from "./timeouts.ts";

export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export function timedFetch(timeouts: ProviderTimeouts, inner: FetchFunction = fetch): FetchFunction {
  return async (input, init) => {
    const controller = new AbortController();
    const outer = init?.signal;
    if (outer?.aborted) controller.abort(outer.reason);
    else outer?.addEventListener("abort", () => controller.abort(outer.reason), { once: true });
    const fail = (error: ProviderTimeoutError) => {
      if (!controller.signal.aborted) controller.abort(error);
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
      const url = requestUrl(input);
      timers.push(
        setTimeout(() => {
          void canConnect(url, timeouts.connectMs, controller.signal).then((ok) => {
            if (!ok) fail(new ProviderTimeoutError("connect", timeouts.connectMs));
          });
        }, timeouts.connectMs),
      );
    }
    try {
      const response = await inner(input, { ...init, signal: controller.signal });
      if (!response.body || timeouts.idleMs <= 0) return response;
      return new Response(idleGuard(response.body, timeouts.idleMs, controller), {
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

/** Passes body chunks through; a gap longer than `idleMs` errors the stream and the request. */
function idleGuard(
  body: ReadableStream<Uint8Array>,
  idleMs: number,
  controller: AbortController,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(out) {
        const timer = setTimeout(() => {
          if (!controller.signal.aborted) controller.abort(new ProviderTimeoutError("idle", idleMs));
          reader.cancel().catch(() => {});
        }, idleMs);
        try {
          const chunk = await reader.read();
          const timedOut = timeoutReason(controller.signal);
          if (timedOut) out.error(timedOut);
          else if (chunk.done) out.close();
          else out.enqueue(chunk.value);
        } catch (err) {
          out.error(timeoutReason(controller.signal) ?? err);
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

/** True when a TCP connection to the URL's host and port opens within `ms`. */
function canConnect(url: URL, ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(true);
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  return new Promise((resolve) => {
    let settled = false;
    const settle = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(ok);
    };
    const timer = setTimeout(() => settle(false), ms);
    Bun.connect({
      hostname,
      port,
      socket: {
        open(socket) {
          socket.end();
          settle(true);
        },
        data() {},
        connectError() {
          settle(false);
        },
      },
    }).catch(() => settle(false));
  });
}
