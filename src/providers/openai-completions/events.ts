/**
 * Chat Completions chunks → normalized events (one attempt). Tool calls arrive split by
 * `index`; the id and name come on the first fragment (some servers send the name late,
 * so arguments are held back until the call can be started).
 */
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ProviderEvent, ProviderUsage, StopReason } from "../../contracts/provider.ts";
import { StreamEndedEarlyError } from "../classify-error.ts";

interface PendingCall {
  id: string;
  name?: string;
  started: boolean;
  buffered: string;
}

/**
 * The reasoning text OpenAI-compatible servers add to the delta for reasoning models, under
 * one of two names the SDK's types do not declare.
 */
function reasoningOf(delta: object): string | undefined {
  const content = "reasoning_content" in delta ? delta.reasoning_content : undefined;
  const reasoning = content ?? ("reasoning" in delta ? delta.reasoning : undefined);
  return typeof reasoning === "string" && reasoning !== "" ? reasoning : undefined;
}

function mapFinish(reason: string | null | undefined, sawToolCall: boolean): StopReason {
  if (reason === "length") return "max_tokens";
  if (reason === "tool_calls" || reason === "function_call" || sawToolCall) return "tool_use";
  return "end_turn";
}

export function chatUsage(u: NonNullable<ChatCompletionChunk["usage"]>): ProviderUsage {
  const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
  // Normalize to "uncached input" like Anthropic: prompt_tokens includes cache hits.
  const usage: ProviderUsage = {
    input: Math.max(0, (u.prompt_tokens ?? 0) - cached),
    output: u.completion_tokens ?? 0,
  };
  if (cached > 0) usage.cache_read = cached;
  return usage;
}

export async function* translateChatStream(
  stream: AsyncIterable<ChatCompletionChunk>,
): AsyncGenerator<ProviderEvent> {
  const calls = new Map<number, PendingCall>();
  let finish: string | null | undefined;
  let usage: ProviderUsage | undefined;
  for await (const chunk of stream) {
    if (chunk.usage) usage = chatUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    // Typed as always there, but a server may leave it out.
    const delta: Partial<ChatCompletionChunk.Choice.Delta> = choice.delta ?? {};
    const reasoning = reasoningOf(delta);
    if (reasoning !== undefined) yield { type: "thinking_delta", text: reasoning };
    if (delta.content) yield { type: "text_delta", text: delta.content };
    for (const tc of delta.tool_calls ?? []) {
      let call = calls.get(tc.index);
      if (!call) {
        call = { id: tc.id || `call_${chunk.id ?? "x"}_${tc.index}`, started: false, buffered: "" };
        calls.set(tc.index, call);
      }
      if (tc.function?.name) call.name = (call.name ?? "") + tc.function.name;
      const args = tc.function?.arguments ?? "";
      if (!call.started && call.name) {
        call.started = true;
        yield { type: "tool_call_start", id: call.id, name: call.name };
        if (call.buffered) yield { type: "tool_call_delta", id: call.id, args_delta: call.buffered };
        call.buffered = "";
      }
      if (!args) continue;
      if (call.started) yield { type: "tool_call_delta", id: call.id, args_delta: args };
      else call.buffered += args;
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  if (finish === undefined || finish === null) throw new StreamEndedEarlyError();
  yield { type: "usage", usage: usage ?? { input: 0, output: 0 } };
  yield { type: "done", stop_reason: mapFinish(finish, calls.size > 0) };
}
