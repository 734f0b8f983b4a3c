/**
 * One turn: provider call → deltas → `message_complete` → tools → steer delivery → next
 * provider call, until the model stops (docs/protocol.md §10.1, §6). The provider is taken
 * from the model controller at every call boundary, so a model switch never interrupts a
 * stream. Every tool call in a persisted assistant message gets a persisted result.
 */
import type { ModelSpec, ProviderEvent, ProviderToolSpec, ProviderUsage } from "../../contracts/provider.ts";
import { computeCost } from "../../providers/cost.ts";
import type { Usage } from "../../types/agent-state.ts";
import type { Message } from "../../types/messages.ts";
import type { WireError } from "../../wire/errors.ts";
import type { ModelController } from "../models/model-controller.ts";
import { AssistantBuilder, type ParsedToolCall } from "./assistant-builder.ts";
import { recordUnexecutedToolCall, runToolCall, type ToolRunnerDeps } from "./tool-runner.ts";
import { endProviderCallSpan, startProviderCallSpan } from "./turn-telemetry.ts";

export interface TurnDeps extends Omit<ToolRunnerDeps, "persist"> {
  models: ModelController;
  systemPrompt: () => string;
  toolSpecs: () => ProviderToolSpec[];
  /** The live window the provider sees (post-compaction), read at each call. */
  window: () => Message[];
  persistMessage: (message: Message) => void;
  persistToolResult: (message: Message, durationMs: number | undefined) => void;
  /** Delivers queued steer messages (persisted); called before the next provider call. */
  deliverSteers: () => Message[];
  /** Emergency tier: called at each iteration boundary; compacts when the window is full. */
  beforeProviderCall: (signal: AbortSignal) => Promise<void>;
  /** Forced compaction after a context-overflow error; returns true when it freed room. */
  compactAfterOverflow: (signal: AbortSignal) => Promise<boolean>;
  onProviderUsage: (usage: ProviderUsage, spec: ModelSpec, messageId: string) => void;
  /** A spent limit (docs/usage.md): the turn stops here, at the provider boundary, with it. */
  budgetRefusal: () => WireError | undefined;
  onRetry: (retry: Extract<ProviderEvent, { type: "retry" }>) => void;
  /** Before the turn's first tool call that may change files (its checkpoint, once per turn); never throws. */
  beforeTools: () => Promise<void>;
}

export interface TurnOutcome {
  usage: Usage;
  error?: TurnError;
}

/** A turn's failure; `status` is the HTTP status a provider answered with, when it did. */
export interface TurnError extends WireError {
  status?: number;
}

/**
 * `resumed`: tool calls of the last assistant message that never ran (a resumed session whose
 * permission question was open): they run first, as they would have, then the loop goes on.
 */
export async function runTurnLoop(
  deps: TurnDeps,
  signal: AbortSignal,
  resumed: readonly ParsedToolCall[] = [],
): Promise<TurnOutcome> {
  const total: Usage = { input: 0, output: 0, cache_read: 0, cache_write: 0 };
  let overflowRetried = false;
  const toolDeps: ToolRunnerDeps = { ...deps, persist: deps.persistToolResult };
  for (const call of resumed) await runAfterCheckpoint(call, toolDeps, deps.beforeTools, signal);

  for (;;) {
    if (signal.aborted) return { usage: total };
    const refusal = deps.budgetRefusal();
    if (refusal !== undefined) return { usage: total, error: refusal };
    await deps.beforeProviderCall(signal);
    const selected = deps.models.providerForNextCall();
    if (!selected.ok) return { usage: total, error: selected.error };
    const { provider, spec } = selected;

    const builder = new AssistantBuilder(deps.newId("msg"), deps.emit, () => deps.newId("tc"));
    let failure: Extract<ProviderEvent, { type: "error" }> | undefined;
    let usage: ProviderUsage | undefined;
    const effort = deps.models.effort();
    const callSpan = startProviderCallSpan(deps.span, spec);
    const callStarted = performance.now();
    let retries = 0;
    const stream = provider.stream({
      model: spec.model,
      system: deps.systemPrompt(),
      messages: deps.window(),
      tools: deps.toolSpecs(),
      maxOutputTokens: spec.max_output,
      signal,
      ...(effort ? { reasoning: effort } : {}),
    });
    for await (const event of stream) {
      if (event.type === "error") failure = event;
      else if (event.type === "usage") usage = event.usage;
      else if (event.type === "retry") {
        retries += 1;
        deps.onRetry(event);
      } else builder.apply(event);
    }
    endProviderCallSpan(callSpan, spec, {
      usage,
      retries,
      latencyMs: performance.now() - callStarted,
      failure,
      aborted: signal.aborted || failure?.kind === "aborted",
    });

    if (failure?.kind === "context_overflow" && builder.isEmpty() && !overflowRetried) {
      overflowRetried = true;
      if (await deps.compactAfterOverflow(signal)) continue;
    }

    const message = builder.finish();
    if (!builder.isEmpty()) {
      deps.persistMessage(message);
      deps.emit({ type: "message_complete", message_id: message.id, message });
    }
    if (usage) {
      addUsage(total, usage, spec);
      deps.onProviderUsage(usage, spec, message.id);
    }

    const calls = builder.toolCallsToRun();
    const streamFailed = failure !== undefined || signal.aborted;
    if (streamFailed) {
      // A cut-off message may name tool calls: answer each so the history stays valid.
      const reason = signal.aborted
        ? "aborted by the user before this tool ran"
        : "the model response was cut off before this tool call completed";
      for (const call of calls) recordUnexecutedToolCall(call.block.id, reason, toolDeps);
      if (signal.aborted || failure === undefined || failure.kind === "aborted") return { usage: total };
      return { usage: total, error: providerError(failure) };
    }

    for (const call of calls) await runAfterCheckpoint(call, toolDeps, deps.beforeTools, signal);
    if (signal.aborted) return { usage: total };

    const steers = deps.deliverSteers();
    for (const msg of steers) deps.emit({ type: "message_complete", message_id: msg.id, message: msg });
    if (calls.length === 0 && steers.length === 0) return { usage: total };
  }
}

function providerError(failure: Extract<ProviderEvent, { type: "error" }>): TurnError {
  const prefix = failure.kind === "context_overflow" ? "context window exceeded: " : "";
  return {
    code: "PROVIDER_ERROR",
    message: `${prefix}${failure.message}`,
    ...(failure.status !== undefined ? { status: failure.status } : {}),
  };
}

function addUsage(total: Usage, usage: ProviderUsage, spec: ModelSpec): void {
  total.input += usage.input;
  total.output += usage.output;
  total.cache_read = (total.cache_read ?? 0) + (usage.cache_read ?? 0);
  total.cache_write = (total.cache_write ?? 0) + (usage.cache_write ?? 0);
  const cost = computeCost(spec, usage);
  if (cost !== undefined) total.cost = (total.cost ?? 0) + cost;
  else total.cost_unknown = true;
  total.model = spec.id;
}

/**
 * Runs a tool call, the turn's checkpoint first when the call may change files: read-only tools
 * change nothing, so a checkpoint taken before the turn's first other call holds the same tree
 * as one before its first call, and a turn that only reads costs no checkpoint.
 */
async function runAfterCheckpoint(
  call: ParsedToolCall,
  deps: ToolRunnerDeps,
  beforeTools: () => Promise<void>,
  signal: AbortSignal,
): Promise<void> {
  if (deps.tools.get(call.block.name)?.isReadOnly !== true) await beforeTools();
  await runToolCall(call, deps, signal);
}
