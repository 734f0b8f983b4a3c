/**
 * Provider contract (docs/architecture.md §6.3). A provider turns one request into a normalized
 * event stream. It never throws: failures arrive as a final `error` event.
 */
import type { Message } from "../types/messages.ts";

export type ProviderApi = "anthropic-messages" | "openai-completions" | "openai-responses";

export interface ProviderToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments (TypeBox schemas are JSON Schema). */
  parameters: Record<string, unknown>;
}

export interface ProviderRequest {
  /** The provider-side model id (the part after `provider/`). */
  model: string;
  system: string;
  /**
   * Conversation so far. Tool results are user messages whose content is tool_result
   * blocks; consecutive such messages belong to the same preceding assistant message.
   */
  messages: Message[];
  tools: ProviderToolSpec[];
  maxOutputTokens?: number;
  /** Reasoning effort id from the model's catalog entry, when the model has levels. */
  reasoning?: string;
  signal: AbortSignal;
}

export interface ProviderUsage {
  input: number;
  output: number;
  cache_read?: number;
  cache_write?: number;
}

export type StopReason = "end_turn" | "tool_use" | "max_tokens" | "aborted";

export type ProviderErrorKind = "provider" | "context_overflow" | "aborted" | "auth";

export type ProviderEvent =
  | { type: "text_delta"; text: string }
  | { type: "thinking_delta"; text: string }
  /** Signature that closes a thinking block (Anthropic signed thinking). */
  | { type: "thinking_signature"; signature: string }
  | { type: "tool_call_start"; id: string; name: string }
  | { type: "tool_call_delta"; id: string; args_delta: string }
  | { type: "usage"; usage: ProviderUsage }
  /**
   * A retryable failure happened; the provider waits `delay_ms` and makes attempt `attempt`
   * of `max_attempts`. `reason` names the provider, model and base URL.
   */
  | { type: "retry"; attempt: number; max_attempts: number; delay_ms: number; reason: string }
  | { type: "done"; stop_reason: StopReason }
  | { type: "error"; kind: ProviderErrorKind; message: string; status?: number };

export interface Provider {
  readonly api: ProviderApi;
  stream(request: ProviderRequest): AsyncIterable<ProviderEvent>;
  /**
   * Starts what a first call would wait for (the SDK loading, its client, the connection to
   * the server) while the caller does other work. Optional; a failure here is reported by the
   * call that needs it.
   */
  prepare?(): void;
}

/** How long a provider call may wait, in ms; 0 turns one off. */
export interface ProviderTimeouts {
  /** Until the server accepts the TCP connection. */
  connectMs: number;
  /** From sending the request until the response headers arrive. */
  firstByteMs: number;
  /** Between two chunks of a streamed response body. */
  idleMs: number;
}

/** One entry of the model catalog (built-ins + `$SHARD_HOME/models.json`). */
export interface ModelSpec {
  /** Wire id: `provider/model`. */
  id: string;
  provider: string;
  model: string;
  api: ProviderApi;
  base_url?: string;
  api_key?: string;
  api_key_env?: string;
  /** Per-provider overrides from models.json (else env, else defaults). */
  timeouts?: Partial<ProviderTimeouts>;
  context_window: number;
  max_output: number;
  reasoning: boolean;
  /**
   * How an Anthropic model takes a reasoning level: a thinking-token budget ("budget",
   * extended thinking, the default) or adaptive thinking with an effort ("adaptive"; the
   * Claude 5 models reject a budget).
   */
  thinking?: "budget" | "adaptive";
  /** Reasoning effort levels, present when `reasoning` is true. */
  reasoning_levels?: { id: string; label: string; description?: string }[];
  /** USD per million tokens; absent: the price is unknown, so a call's cost is unknown (never 0). */
  cost?: { input: number; output: number; cache_read?: number; cache_write?: number };
}
