/** Helpers shared by the three wire-format encoders. */
import type { MockReply, MockStep, Segment } from "./types.ts";

export const DEFAULT_REPLY: MockReply = { steps: [{ text: "Hello from the mock LLM." }] };

/** Splits text into `n` pieces of near-equal length, never inside a surrogate pair. */
export function splitChunks(text: string, n = 1): string[] {
  const chars = Array.from(text);
  const count = Math.max(1, Math.min(Math.floor(n), chars.length));
  if (count === 1) return [text];
  const out: string[] = [];
  const size = chars.length / count;
  for (let i = 0; i < count; i++)
    out.push(chars.slice(Math.round(i * size), Math.round((i + 1) * size)).join(""));
  return out;
}

export function namedEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function dataEvent(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

export function toolArgsText(args: Record<string, unknown> | string): string {
  return typeof args === "string" ? args : JSON.stringify(args);
}

export function stopOf(reply: MockReply): "end_turn" | "tool_use" | "max_tokens" {
  if (reply.stop) return reply.stop;
  return (reply.steps ?? []).some((s) => "tool_call" in s) ? "tool_use" : "end_turn";
}

export function usageOf(reply: MockReply): { input: number; output: number; cache_read: number } {
  return {
    input: reply.usage?.input ?? 10,
    output: reply.usage?.output ?? 5,
    cache_read: reply.usage?.cache_read ?? 0,
  };
}

type ControlStep = Extract<MockStep, { delay_ms: number } | { hold: string } | { disconnect: true }>;
/** A step that becomes wire content: text, thinking or a tool call. */
export type ContentStep = Exclude<MockStep, ControlStep>;

function isControl(step: MockStep): step is ControlStep {
  return "delay_ms" in step || "hold" in step || "disconnect" in step;
}

/**
 * Walks a reply's steps in order: content steps through `encode`, control steps (delay, hold,
 * disconnect) straight to the writer. Returns false when a disconnect cut the stream there, so
 * the encoder must not write its closing frames.
 */
export function* encodeSteps(
  reply: MockReply,
  encode: (step: ContentStep) => Iterable<Segment>,
): Generator<Segment, boolean> {
  for (const step of reply.steps ?? []) {
    if (isControl(step)) {
      yield step;
      if ("disconnect" in step) return false;
      continue;
    }
    yield* encode(step);
  }
  return true;
}

/** HTTP status for an error reply without an explicit one. */
export function errorStatus(reply: MockReply): number {
  if (reply.status !== undefined) return reply.status;
  switch (reply.error_type) {
    case "overloaded_error":
      return 529;
    case "rate_limit_error":
    case "rate_limit_exceeded":
      return 429;
    case "context_overflow":
    case "context_length_exceeded":
    case "invalid_request_error":
      return 400;
    case "authentication_error":
      return 401;
    default:
      return 500;
  }
}

export function isContextOverflow(errorType: string | undefined): boolean {
  return errorType === "context_overflow" || errorType === "context_length_exceeded";
}

/** `error_type` is a type when it looks like an identifier, else it is the message text. */
export function isTypeName(errorType: string): boolean {
  return /^[a-z_]+$/.test(errorType);
}
