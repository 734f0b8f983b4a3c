/**
 * Turns whatever an SDK call threw into a normalized error description: which
 * `ProviderErrorKind` it is, whether a retry can help, and how long the server asked
 * us to wait. Works on both SDKs by shape (status/headers/error body), not by class,
 * because the SDKs are loaded lazily.
 */
import type { ProviderErrorKind } from "../contracts/provider.ts";
import { isRecord } from "../support/is-record.ts";
import { summarizeErrorMessage } from "./error-summary.ts";

export interface ClassifiedError {
  kind: ProviderErrorKind;
  message: string;
  status?: number;
  /** True for transient failures (rate limit, overload, 5xx, connection loss). */
  retryable: boolean;
  /** Server-requested wait (Retry-After / retry-after-ms), in milliseconds. */
  retryAfterMs?: number;
  /** The connection broke (as opposed to the server answering with an error). */
  connection: boolean;
}

/** The stream ended without the API's completion marker (message_stop, [DONE], response.completed). */
export class StreamEndedEarlyError extends Error {
  constructor() {
    super("the connection closed before the response was complete");
    this.name = "StreamEndedEarlyError";
  }
}

/** The API reported a failure inside the event stream (e.g. Anthropic `error` event, `response.failed`). */
export class StreamErrorEvent extends Error {
  constructor(
    message: string,
    readonly errorType: string | undefined,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = "StreamErrorEvent";
  }
}

const CONTEXT_OVERFLOW =
  /prompt is too long|context_length_exceeded|maximum context length|context window|exceeds the context|too many tokens|input is too long/i;
const RETRYABLE_TYPES = new Set([
  "overloaded_error",
  "rate_limit_error",
  "api_error",
  "server_error",
  "timeout_error",
]);
const CONNECTION_ERROR_NAMES = new Set([
  "APIConnectionError",
  "APIConnectionTimeoutError",
  "StreamEndedEarlyError",
  "ProviderTimeoutError",
  "ConnectionRefused",
  "ConnectionClosed",
  "ECONNRESET",
  "ECONNREFUSED",
]);

/** A thrown value's fields (`name`, `message`, `status`, `error`, `code`, `type`, `errorType`, `cause`), all unknown. */
type ErrorShape = Record<string, unknown>;

function str(v: unknown): string | undefined {
  return typeof v === "string" && v.length > 0 ? v : undefined;
}

/** Reads `type`, `code` and `message` from either SDK's parsed error body. */
function bodyFields(body: unknown): { type?: string; code?: string; message?: string } {
  if (!isRecord(body)) return {};
  // Anthropic: { type: "error", error: { type, message } }; OpenAI SDK already unwraps to { message, type, code }.
  const inner = isRecord(body.error) ? body.error : body;
  return { type: str(inner.type), code: str(inner.code), message: str(inner.message) };
}

/** A reader for `Headers` or an SDK's look-alike (anything with `get`); a non-string value reads as absent. */
function headerReader(headers: unknown): ((name: string) => string | undefined) | undefined {
  if (!isRecord(headers)) return undefined;
  const get = headers.get;
  if (typeof get !== "function") return undefined;
  return (name) => {
    const value: unknown = get.call(headers, name);
    return typeof value === "string" ? value : undefined;
  };
}

export function parseRetryAfter(headers: unknown, now = Date.now()): number | undefined {
  const header = headerReader(headers);
  if (header === undefined) return undefined;
  const rawMs = header("retry-after-ms");
  const ms = Number(rawMs);
  if (rawMs !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = header("retry-after");
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function classifyError(err: unknown, aborted: boolean): ClassifiedError {
  if (aborted) return { kind: "aborted", message: "request aborted", retryable: false, connection: false };
  const e: ErrorShape = isRecord(err) ? err : { message: String(err) };
  const name = str(e.name) ?? "";
  if (name === "AbortError" || name === "APIUserAbortError") {
    return { kind: "aborted", message: "request aborted", retryable: false, connection: false };
  }
  const status = typeof e.status === "number" ? e.status : undefined;
  const body = bodyFields(e.error);
  const type = body.type ?? str(e.errorType) ?? str(e.type);
  const code = body.code ?? str(e.code);
  const message = summarizeErrorMessage(userMessage(e, body.message), status);
  const base = { message, ...(status !== undefined ? { status } : {}) };

  if (
    code === "context_length_exceeded" ||
    CONTEXT_OVERFLOW.test(message) ||
    CONTEXT_OVERFLOW.test(body.message ?? "")
  ) {
    return { ...base, kind: "context_overflow", retryable: false, connection: false };
  }
  if (status === 401 || status === 403 || type === "authentication_error" || type === "permission_error") {
    return { ...base, kind: "auth", retryable: false, connection: false };
  }
  const connection = status === undefined && (CONNECTION_ERROR_NAMES.has(name) || isNetworkFailure(e));
  // A 429 for an exhausted quota never succeeds on retry.
  const quota = code === "insufficient_quota" || type === "insufficient_quota";
  const retryableStatus =
    status === 408 || status === 409 || status === 429 || (status !== undefined && status >= 500);
  const retryable =
    !quota && (connection || retryableStatus || (type !== undefined && RETRYABLE_TYPES.has(type)));
  const retryAfterMs = parseRetryAfter(e.headers);
  return {
    ...base,
    kind: "provider",
    retryable,
    connection,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
}

/** Bun/undici surface socket failures as TypeErrors or errors with a `code`, sometimes wrapped in `cause`. */
function isNetworkFailure(e: ErrorShape): boolean {
  const code = str(e.code) ?? "";
  if (/^(ECONN|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|UND_ERR)/.test(code) || CONNECTION_ERROR_NAMES.has(code))
    return true;
  const message = str(e.message) ?? "";
  if (/socket|connection|network|fetch failed|terminated|closed unexpectedly/i.test(message)) return true;
  if (isRecord(e.cause) && e.cause !== e) return isNetworkFailure(e.cause);
  return false;
}

/** Bun's hint for its own developers, appended to fetch errors; meaningless to a Shard user. */
const RUNTIME_HINTS =
  /\s*For more information,? pass `verbose: true` in the second argument to fetch\(\)\.?/gi;

/** Bun's wording for socket failures, and what a user should read instead. */
const BUN_WORDING: [RegExp, string][] = [
  [
    /^(ECONNREFUSED: )?Unable to connect\. Is the computer able to access the url\??$/i,
    "connection refused: is the server running, and is the base URL right?",
  ],
  [/^(ECONNRESET: )?The socket connection was closed unexpectedly\.?$/i, "the server closed the connection"],
];

function clean(message: string): string {
  let out = message.replace(RUNTIME_HINTS, "").trim();
  for (const [pattern, replacement] of BUN_WORDING) if (pattern.test(out)) out = replacement;
  return out;
}

/**
 * The most specific message: the SDKs wrap socket failures as "Connection error." with the
 * real failure in `cause`, so a wrapper's generic text gets the cause's text appended.
 */
function userMessage(e: ErrorShape, bodyMessage: string | undefined): string {
  const own = str(e.message) ?? bodyMessage ?? "unknown provider error";
  const cause = isRecord(e.cause) ? str(e.cause.message) : undefined;
  const cleanOwn = clean(own);
  if (cause === undefined) return cleanOwn;
  const cleanCause = clean(cause);
  if (cleanCause === "" || cleanOwn.includes(cleanCause)) return cleanOwn;
  return `${cleanOwn.replace(/\.$/, "")}: ${cleanCause}`;
}
