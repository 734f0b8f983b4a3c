/**
 * What a turn tells OpenTelemetry (docs/telemetry.md): one span per turn, per provider call and
 * per tool call, and the token, cost, turn, tool-call and permission-wait metrics. With export off
 * every call here is a no-op. Content — prompt text, tool arguments and outputs — is attached only
 * with SHARD_OTEL_LOG_CONTENT=1; every other attribute is an id, a name, a count or a category.
 */
import type { ModelSpec, ProviderEvent, ProviderUsage } from "../../contracts/provider.ts";
import type { ToolResult } from "../../contracts/tool.ts";
import { computeCost } from "../../providers/cost.ts";
import { type TelemetrySpan, telemetry } from "../../telemetry/telemetry.ts";
import type { Usage } from "../../types/agent-state.ts";
import type { Message, ToolCallBlock } from "../../types/messages.ts";

/** Content attributes are cut to this many characters (a collector is no transcript store). */
const CONTENT_LIMIT = 4_096;

export interface TurnSpanInfo {
  sessionId: string;
  turnId: string;
  model: string;
  mode: string;
  prompt?: Message;
  /** The durable agent (a runtime a daemon started); absent for a standalone `shard agent`. */
  agentId?: string;
}

export function startTurnSpan(info: TurnSpanInfo): TelemetrySpan {
  const t = telemetry();
  if (!t.enabled) return t.span("shard.turn", {});
  const span = t.span("shard.turn", {
    "gen_ai.operation.name": "invoke_agent",
    "shard.session.id": info.sessionId,
    "shard.turn.id": info.turnId,
    "gen_ai.request.model": info.model,
    "shard.mode": info.mode,
  });
  if (info.agentId) span.set("shard.agent.id", info.agentId);
  if (t.logContent && info.prompt) span.set("shard.prompt", contentOf(messageText(info.prompt)));
  return span;
}

export function endTurnSpan(span: TelemetrySpan, usage: Usage, endReason: string, errorCode?: string): void {
  const t = telemetry();
  if (!t.enabled) return;
  span.set("shard.turn.end_reason", endReason);
  span.set("gen_ai.usage.input_tokens", usage.input);
  span.set("gen_ai.usage.output_tokens", usage.output);
  if (usage.cost !== undefined && usage.cost > 0) span.set("shard.cost_usd", usage.cost);
  span.end(errorCode);
  t.count("shard.turns", 1, { "shard.turn.end_reason": endReason });
}

export function startProviderCallSpan(turn: TelemetrySpan | undefined, spec: ModelSpec): TelemetrySpan {
  const t = telemetry();
  if (!t.enabled) return t.span("shard.provider_call", {});
  return t.span(
    "shard.provider_call",
    {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": spec.provider,
      "gen_ai.request.model": spec.model,
      "shard.provider.api": spec.api,
    },
    turn,
  );
}

export function endProviderCallSpan(
  span: TelemetrySpan,
  spec: ModelSpec,
  outcome: {
    usage: ProviderUsage | undefined;
    retries: number;
    latencyMs: number;
    failure: Extract<ProviderEvent, { type: "error" }> | undefined;
    aborted: boolean;
  },
): void {
  const t = telemetry();
  if (!t.enabled) return;
  const { usage, failure } = outcome;
  span.set("shard.provider.retries", outcome.retries);
  span.set("shard.provider.latency_ms", Math.round(outcome.latencyMs));
  const status = outcome.aborted ? "aborted" : failure ? "error" : "ok";
  span.set("shard.provider.status", status);
  if (failure?.status !== undefined) span.set("http.response.status_code", failure.status);
  const model = { "gen_ai.request.model": spec.model, "gen_ai.provider.name": spec.provider };
  if (usage) {
    span.set("gen_ai.usage.input_tokens", usage.input);
    span.set("gen_ai.usage.output_tokens", usage.output);
    t.count("shard.tokens", usage.input, { ...model, "gen_ai.token.type": "input" });
    t.count("shard.tokens", usage.output, { ...model, "gen_ai.token.type": "output" });
    if (usage.cache_read)
      t.count("shard.tokens", usage.cache_read, { ...model, "gen_ai.token.type": "cache_read" });
    if (usage.cache_write)
      t.count("shard.tokens", usage.cache_write, { ...model, "gen_ai.token.type": "cache_write" });
    // A model without a price has no cost data point: unknown is not zero.
    const cost = computeCost(spec, usage);
    if (cost !== undefined) {
      span.set("shard.cost_usd", cost);
      t.count("shard.cost", cost, model);
    }
  }
  // The kind only: a provider's error message may quote the request.
  span.end(failure && !outcome.aborted ? failure.kind : undefined);
}

export type ToolOutcome = "ok" | "error" | "denied" | "aborted" | "unknown_tool" | "invalid_arguments";

export function startToolCallSpan(turn: TelemetrySpan | undefined, block: ToolCallBlock): TelemetrySpan {
  const t = telemetry();
  if (!t.enabled) return t.span("shard.tool_call", {});
  const span = t.span(
    "shard.tool_call",
    {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": block.name,
      "gen_ai.tool.call.id": block.id,
    },
    turn,
  );
  if (t.logContent) span.set("gen_ai.tool.call.arguments", contentOf(JSON.stringify(block.args ?? null)));
  return span;
}

export function endToolCallSpan(
  span: TelemetrySpan,
  name: string,
  result: ToolResult,
  outcome: ToolOutcome,
): void {
  const t = telemetry();
  if (!t.enabled) return;
  span.set("shard.tool.outcome", outcome);
  if (result.duration_ms !== undefined) span.set("shard.tool.duration_ms", result.duration_ms);
  if (result.exit_code !== undefined) span.set("process.exit.code", result.exit_code);
  if (result.sandbox !== undefined) {
    span.set("shard.tool.sandbox", result.sandbox);
    span.set("shard.tool.sandboxed", result.sandbox !== "off");
  }
  if (t.logContent) span.set("gen_ai.tool.call.result", contentOf(resultText(result)));
  span.end(outcome === "ok" ? undefined : outcome);
  t.count("shard.tool_calls", 1, { "gen_ai.tool.name": name, "shard.tool.outcome": outcome });
}

/** How long a tool call waited for a person's answer to its permission question. */
export function recordPermissionWait(name: string, waitedMs: number, answer: string): void {
  const t = telemetry();
  if (!t.enabled) return;
  t.record("shard.permission.wait", waitedMs, {
    "gen_ai.tool.name": name,
    "shard.permission.answer": answer,
  });
}

function messageText(message: Message): string {
  return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

function resultText(result: ToolResult): string {
  const { content } = result;
  if (content.kind === "text") return content.text;
  if (content.kind === "error") return content.message;
  return JSON.stringify(content.value ?? null);
}

function contentOf(text: string): string {
  return text.length <= CONTENT_LIMIT ? text : `${text.slice(0, CONTENT_LIMIT)}…`;
}
