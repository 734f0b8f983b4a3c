/**
 * Sends one streaming request of the two OpenAI wire formats (Chat Completions, Responses) and
 * returns the response whose body `sse-stream.ts` reads. This is what the OpenAI SDK did for
 * us, without its per-request machinery: in a fresh agent the SDK's import and its cold
 * request path cost several milliseconds a call, which was a large part of a short tool turn
 * (docs/benchmarks.md, "Tool turn"). The request is the SDK's (URL, bearer key, JSON body, the
 * organization and project it takes from the environment), and so are its failures: an HTTP
 * error status throws an error with `status`, `headers` and the body's `error`, a failed
 * connection one that carries the socket error as `cause`, as `classify-error.ts` reads them.
 */
import { isRecord } from "../support/is-record.ts";
import type { ProviderConfig } from "./provider-config.ts";
import type { FetchFunction } from "./timed-fetch.ts";

/** The server answered with an error status (the SDK's `APIError`, by shape). */
export class ProviderHttpError extends Error {
  readonly code: string | undefined;
  readonly type: string | undefined;

  constructor(
    readonly status: number,
    /** The body's `error` object, when the body was JSON. */
    readonly error: Record<string, unknown> | undefined,
    readonly headers: Headers,
    bodyText: string,
  ) {
    super(statusMessage(status, error, bodyText));
    this.name = "ProviderHttpError";
    this.code = typeof error?.code === "string" ? error.code : undefined;
    this.type = typeof error?.type === "string" ? error.type : undefined;
  }
}

/** The request got no answer; `cause` is the socket error (the SDK's `APIConnectionError`). */
export class ProviderConnectionError extends Error {
  constructor(cause: unknown) {
    super("Connection error.", { cause });
    this.name = "ProviderConnectionError";
  }
}

/** The SDK's wording, so errors read the same as before: "429 Rate limit reached …". */
function statusMessage(status: number, error: Record<string, unknown> | undefined, bodyText: string): string {
  const message = error?.message;
  const text =
    typeof message === "string"
      ? message
      : message !== undefined
        ? JSON.stringify(message)
        : error !== undefined
          ? JSON.stringify(error)
          : bodyText.trim();
  return text ? `${status} ${text}` : `${status} status code (no body)`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function requestHeaders(apiKey: string): Record<string, string> {
  const headers: Record<string, string> = {
    accept: "application/json",
    "content-type": "application/json",
    authorization: `Bearer ${apiKey}`,
  };
  // The SDK sends these when they are set in the environment; so do we.
  const organization = process.env.OPENAI_ORG_ID;
  const project = process.env.OPENAI_PROJECT_ID;
  if (organization) headers["openai-organization"] = organization;
  if (project) headers["openai-project"] = project;
  return headers;
}

/** POSTs `body` to `path` under the base URL; resolves with a 2xx response, else throws. */
export async function postOpenAIStream(
  config: Pick<ProviderConfig, "apiKey" | "baseUrl">,
  fetch: FetchFunction,
  path: "/chat/completions" | "/responses",
  body: object,
  signal: AbortSignal,
): Promise<Response> {
  const url = config.baseUrl.endsWith("/") ? `${config.baseUrl}${path.slice(1)}` : `${config.baseUrl}${path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: requestHeaders(config.apiKey),
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    // An abort (the caller's, or a timeout's) is not a connection failure.
    if (signal.aborted) throw err;
    throw new ProviderConnectionError(err);
  }
  if (response.ok) return response;
  const text = await response.text().catch(() => "");
  const parsed = parseJson(text);
  const error = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : undefined;
  throw new ProviderHttpError(response.status, error, response.headers, error ? "" : text);
}
