/** Public shapes of the mock LLM server (used by provider, integration and benchmark tests). */

export type MockStep =
  | { text: string; chunks?: number } // split into `chunks` deltas (default 1)
  | { thinking: string; chunks?: number; signature?: string }
  | { tool_call: { id?: string; name: string; args: Record<string, unknown> | string; chunks?: number } }
  | { delay_ms: number }
  // Send everything before it, then wait until the test calls `release(hold)`; the stream is
  // cut if it is not released within `timeout_ms` (default: the server's `holdTimeoutMs`).
  | { hold: string; timeout_ms?: number }
  | { disconnect: true }; // drop the connection mid-stream

export interface MockReply {
  /**
   * Only for a request whose body contains this text (say, a child's task); other requests skip
   * it. Lets agents that call the model concurrently each get their own reply.
   */
  when?: string;
  /** Non-200: send an error body in the API's real error format. */
  status?: number;
  /**
   * An error type (`overloaded_error`, `rate_limit_error`, `invalid_request_error`, …), or
   * `context_overflow` for each API's real context-length error, or free text used as the
   * error message. Without `status`, a status matching the type is used.
   */
  error_type?: string;
  retry_after_s?: number;
  /** With `status`: answer with this body as `text/html` instead (a proxy's or server's error page). */
  error_html?: string;
  steps?: MockStep[];
  usage?: { input: number; output: number; cache_read?: number };
  /** Default: tool_use if any tool_call step else end_turn. */
  stop?: "end_turn" | "tool_use" | "max_tokens";
}

export interface MockRequest {
  path: string;
  // biome-ignore lint/suspicious/noExplicitAny: the parsed JSON request body; tests index into it freely.
  body: any;
  headers: Record<string, string>;
}

export interface MockLlmServer {
  /** e.g. http://127.0.0.1:PORT (no /v1). */
  url: string;
  /** FIFO; when empty, reply with a short default text turn (or the next script entry). */
  enqueue(...replies: MockReply[]): void;
  /** Drops the replies no request took (a test that ended mid-turn leaves its later ones). */
  clearQueue(): void;
  requests: MockRequest[];
  waitForRequests(n: number, timeoutMs?: number): Promise<void>;
  /** Resolves once a stream is held at `{ hold: name }` (at once if one is); rejects after `timeoutMs` (10 s). */
  waitForHold(name: string, timeoutMs?: number): Promise<void>;
  /**
   * Lets every stream held at `name` go on; returns how many were held. A release before any
   * stream reached `name` is kept for the next one that does.
   */
  release(name: string): number;
  /** The hold names streams wait at now, once per held stream (empty when nothing is held). */
  held(): string[];
  /** Stops the server; every held stream is cut. */
  close(): Promise<void>;
}

export interface MockLlmServerOptions {
  /** Port to bind on 127.0.0.1 (default 0: any free port). */
  port?: number;
  /** Replies used cyclically whenever the queue is empty (standalone/benchmark mode). */
  script?: MockReply[];
  /** Keep request bodies in `requests` (default true; off for long benchmark runs). */
  recordRequests?: boolean;
  /** The model id `GET /v1/models` lists (default "mock-model"). */
  modelId?: string;
  /** How long a `{ hold }` step waits for its release before the stream is cut (default 20 s). */
  holdTimeoutMs?: number;
  /** Told when a hold times out (default: console.error). */
  onHoldTimeout?: (message: string) => void;
}

/** What a wire-format encoder yields: SSE text, or a control instruction for the writer. */
export type Segment =
  | string
  | { delay_ms: number }
  | { hold: string; timeout_ms?: number }
  | { disconnect: true };
