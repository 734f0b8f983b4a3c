/** Public shapes of the mock LLM server (used by provider, integration and benchmark tests). */

export type MockStep =
  | { text: string; chunks?: number } // split into `chunks` deltas (default 1)
  | { thinking: string; chunks?: number; signature?: string }
  | { tool_call: { id?: string; name: string; args: Record<string, unknown> | string; chunks?: number } }
  | { delay_ms: number }
  | { disconnect: true }; // drop the connection mid-stream

export interface MockReply {
  /** Non-200: send an error body in the API's real error format. */
  status?: number;
  /**
   * An error type (`overloaded_error`, `rate_limit_error`, `invalid_request_error`, …), or
   * `context_overflow` for each API's real context-length error, or free text used as the
   * error message. Without `status`, a status matching the type is used.
   */
  error_type?: string;
  retry_after_s?: number;
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
  requests: MockRequest[];
  waitForRequests(n: number, timeoutMs?: number): Promise<void>;
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
}

/** What a wire-format encoder yields: SSE text, or a control instruction for the writer. */
export type Segment = string | { delay_ms: number } | { disconnect: true };
