/**
 * The retry loop shared by every API. One attempt is an async generator of normalized
 * events that throws on failure; this loop turns failures into `retry` events (only while
 * nothing visible has been streamed) or a final `error` event, so a provider never throws.
 */
import type { ProviderEvent } from "../contracts/provider.ts";
import { classifyError } from "./classify-error.ts";
import { formatDuration } from "./timeouts.ts";

export interface RetryPolicy {
  /** Total attempts including the first (default 4). */
  maxAttempts: number;
  /** Base of the exponential backoff in ms (default 1000; tests use a few ms). */
  baseMs: number;
}

const MAX_BACKOFF_MS = 30_000;
/** A server asking for a longer pause than this is honoured up to this cap. */
const MAX_RETRY_AFTER_MS = 60_000;

export const DEFAULT_MAX_ATTEMPTS = 4;
export const DEFAULT_RETRY_BASE_MS = 1000;

export function retryPolicyFrom(
  env: Record<string, string | undefined>,
  options: { retryBaseMs?: number; maxAttempts?: number } = {},
): RetryPolicy {
  const envBase = Number(env.SHARD_RETRY_BASE_MS);
  const envAttempts = Number(env.SHARD_RETRY_MAX_ATTEMPTS);
  return {
    baseMs:
      options.retryBaseMs ?? (env.SHARD_RETRY_BASE_MS && envBase >= 0 ? envBase : DEFAULT_RETRY_BASE_MS),
    maxAttempts: Math.max(
      1,
      options.maxAttempts ??
        (env.SHARD_RETRY_MAX_ATTEMPTS && envAttempts >= 1 ? envAttempts : DEFAULT_MAX_ATTEMPTS),
    ),
  };
}

/** Exponential backoff with "equal jitter": half fixed, half random. */
export function backoffDelay(retryNumber: number, baseMs: number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  const exp = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** (retryNumber - 1));
  return Math.round(exp / 2 + Math.random() * (exp / 2));
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

const VISIBLE = new Set<ProviderEvent["type"]>([
  "text_delta",
  "thinking_delta",
  "thinking_signature",
  "tool_call_start",
  "tool_call_delta",
]);

const ABORTED: ProviderEvent = { type: "error", kind: "aborted", message: "request aborted" };

/** `<provider> <model> at <base url>`: every failure names what was called. */
export function describeEndpoint(spec: { provider: string; model: string }, baseUrl: string): string {
  return `${spec.provider} ${spec.model} at ${baseUrl}`;
}

/** The `status` detail a client shows while waiting: "retrying in 2 s, attempt 2/4: …". */
export function retryDetail(event: Extract<ProviderEvent, { type: "retry" }>): string {
  return `retrying in ${formatDuration(event.delay_ms)}, attempt ${event.attempt}/${event.max_attempts}: ${event.reason}`;
}

/**
 * Runs `attempt` until it yields `done`. `attempt` receives a signal that also fires when
 * the consumer stops iterating early, so the HTTP stream is always released. `endpoint`
 * (see `describeEndpoint`) prefixes every retry reason and error message; `authHint` (see
 * `authHint`) follows a refused key's message.
 */
export async function* streamWithRetries(
  signal: AbortSignal,
  policy: RetryPolicy,
  target: { endpoint: string; authHint: string },
  attempt: (signal: AbortSignal) => AsyncIterable<ProviderEvent>,
): AsyncGenerator<ProviderEvent> {
  const endpoint = target.endpoint;
  for (let n = 1; ; n++) {
    if (signal.aborted) {
      yield ABORTED;
      return;
    }
    const local = new AbortController();
    const forward = () => local.abort(signal.reason);
    signal.addEventListener("abort", forward, { once: true });
    let streamed = false;
    try {
      for await (const event of attempt(local.signal)) {
        if (signal.aborted) break;
        if (VISIBLE.has(event.type)) streamed = true;
        if (event.type === "error") {
          yield { ...event, message: `${endpoint}: ${event.message}` };
          return;
        }
        yield event;
        if (event.type === "done") return;
      }
      if (signal.aborted) {
        yield ABORTED;
        return;
      }
      // The attempt ended without `done`: the translator only does this on a protocol bug.
      yield {
        type: "error",
        kind: "provider",
        message: `${endpoint}: provider stream ended without a stop reason`,
      };
      return;
    } catch (err) {
      const info = classifyError(err, signal.aborted);
      if (info.kind === "aborted") {
        yield ABORTED;
        return;
      }
      if (!streamed && info.retryable && n < policy.maxAttempts) {
        const delay = backoffDelay(n, policy.baseMs, info.retryAfterMs);
        yield {
          type: "retry",
          attempt: n + 1,
          max_attempts: policy.maxAttempts,
          delay_ms: delay,
          reason: `${endpoint}: ${info.message}`,
        };
        if (!(await abortableSleep(delay, signal))) {
          yield ABORTED;
          return;
        }
        continue;
      }
      let message = info.message;
      if (streamed && info.connection)
        message = `connection lost mid-stream after partial output: ${info.message}`;
      else if (info.retryable && n > 1) message = `${info.message} (gave up after ${n} attempts)`;
      else if (info.kind === "auth") message = `${info.message}; ${target.authHint}`;
      yield {
        type: "error",
        kind: info.kind,
        message: `${endpoint}: ${message}`,
        ...(info.status !== undefined ? { status: info.status } : {}),
      };
      return;
    } finally {
      signal.removeEventListener("abort", forward);
      local.abort();
    }
  }
}
