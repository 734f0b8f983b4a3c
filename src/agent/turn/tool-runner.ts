/**
 * Runs one tool call: argument checks → permission gate → `tool_call` event → execute →
 * persist → `tool_result` event. Every outcome, including denial and abort, produces a
 * tool result so the history never holds a call without its result.
 */
import { Value } from "@sinclair/typebox/value";
import type {
  ModePolicy,
  PermissionAnswer,
  PermissionAsker,
  PermissionGate,
} from "../../contracts/permission-gate.ts";
import type { AnyTool, ToolContext, ToolResult } from "../../contracts/tool.ts";
import { toolResultMessage } from "../../snapshot/live-window.ts";
import { describeError } from "../../support/describe-error.ts";
import type { TelemetrySpan } from "../../telemetry/telemetry.ts";
import { errorResult } from "../../tools/tool-result.ts";
import type { UnsequencedAgentEvent } from "../../types/catalog.ts";
import type { Message } from "../../types/messages.ts";
import type { ParsedToolCall } from "./assistant-builder.ts";
import { toolResultEvent } from "./tool-result-message.ts";
import {
  endToolCallSpan,
  recordPermissionWait,
  startToolCallSpan,
  type ToolOutcome,
} from "./turn-telemetry.ts";

export interface ToolRunnerDeps {
  tools: ReadonlyMap<string, AnyTool>;
  gate: PermissionGate;
  ask: PermissionAsker;
  askUser: ToolContext["askUser"];
  /** Present when the client serves reads (`--client-reads`). */
  readClientFile?: (path: string, signal: AbortSignal) => Promise<string | undefined>;
  cwd: string;
  mode: () => ModePolicy;
  emit: (event: UnsequencedAgentEvent) => void;
  /** Persists the result; must return only once it is on disk. */
  persist: (message: Message, durationMs: number | undefined) => void;
  /** Records that the call's permission question was asked / answered (on disk on return). */
  recordPermissionWait: (toolCallId: string, phase: "asked" | "answered") => void;
  newId: (prefix: string) => string;
  /** The turn's span: each tool call's span goes under it (src/telemetry; a no-op when export is off). */
  span?: TelemetrySpan;
}

/**
 * How long a tool may take to settle after an abort. A tool that ignores its signal (or whose
 * process left the group and holds the pipes) is abandoned then, so `abort` is never held up.
 */
export const ABORT_GRACE_MS = 2_000;

export async function runToolCall(
  call: ParsedToolCall,
  deps: ToolRunnerDeps,
  signal: AbortSignal,
): Promise<void> {
  const { block } = call;
  const span = startToolCallSpan(deps.span, block);
  const { result, outcome } = await decideAndExecute(call, deps, signal, span);
  endToolCallSpan(span, block.name, result, outcome);
  const messageId = deps.newId("msg");
  const event = toolResultEvent(messageId, block.id, result);
  deps.persist(toolResultMessage(event, messageId), result.duration_ms);
  deps.emit(event);
}

/** Records a call that never ran (aborted, or its message was cut off) with an error result. */
export function recordUnexecutedToolCall(
  toolCallId: string,
  reason: string,
  deps: Pick<ToolRunnerDeps, "persist" | "emit" | "newId">,
): void {
  const result = errorResult(reason);
  const messageId = deps.newId("msg");
  const event = toolResultEvent(messageId, toolCallId, result);
  deps.persist(toolResultMessage(event, messageId), undefined);
  deps.emit(event);
}

/** Result for a call that never ran because the turn was aborted first. */
export function abortedResult(): ToolResult {
  return errorResult("aborted by the user before this tool ran");
}

async function decideAndExecute(
  call: ParsedToolCall,
  deps: ToolRunnerDeps,
  signal: AbortSignal,
  span: TelemetrySpan,
): Promise<{ result: ToolResult; outcome: ToolOutcome }> {
  const { block } = call;
  if (signal.aborted) return { result: abortedResult(), outcome: "aborted" };
  const tool = deps.tools.get(block.name);
  if (!tool) {
    const available = [...deps.tools.keys()].join(", ");
    return {
      result: errorResult(`unknown tool "${block.name}". Available tools: ${available}`),
      outcome: "unknown_tool",
    };
  }
  if (call.argsError)
    return { result: errorResult(`${block.name}: ${call.argsError}`), outcome: "invalid_arguments" };
  if (!Value.Check(tool.parameters, block.args)) {
    const first = Value.Errors(tool.parameters, block.args).First();
    const field = first?.path ? first.path.slice(1).replaceAll("/", ".") : "(arguments)";
    const problem = first?.message ?? "does not match the schema";
    return {
      result: errorResult(`${block.name}: invalid argument "${field}": ${problem}`),
      outcome: "invalid_arguments",
    };
  }
  // The question is on record while it is open: a runtime killed now never ran the call, and a
  // resumed one asks again (src/agent/resume/open-permission-asks.ts).
  const ask: PermissionAsker = async (question, askSignal) => {
    deps.recordPermissionWait(block.id, "asked");
    const asked = performance.now();
    const answer = await deps.ask(question, askSignal);
    deps.recordPermissionWait(block.id, "answered");
    recordPermissionWait(block.name, performance.now() - asked, answerKind(answer));
    return answer;
  };
  const decision = await deps.gate.decide(
    { tool, args: block.args, cwd: deps.cwd, mode: deps.mode(), signal },
    ask,
  );
  if (!decision.allowed) {
    if (signal.aborted) return { result: abortedResult(), outcome: "aborted" };
    return { result: errorResult(`permission denied: ${decision.reason}`), outcome: "denied" };
  }
  if (signal.aborted) return { result: abortedResult(), outcome: "aborted" };
  let render: ReturnType<NonNullable<AnyTool["render"]>>;
  try {
    render = tool.render?.(block.args);
  } catch {
    render = undefined; // a preview is optional; never fail the call over it
  }
  deps.emit({
    type: "tool_call",
    tool_call_id: block.id,
    name: block.name,
    args: block.args,
    read_only: tool.isReadOnly,
    ...(render ? { render } : {}),
  });
  const started = performance.now();
  const traceparent = span.traceparent();
  try {
    const execution = tool.execute(block.args, {
      cwd: deps.cwd,
      signal,
      toolCallId: block.id,
      askUser: deps.askUser,
      onUpdate: liveOutput(block.id, deps.emit),
      ...(deps.readClientFile !== undefined
        ? {
            readClientFile: (path: string) =>
              deps.readClientFile?.(path, signal) ?? Promise.resolve(undefined),
          }
        : {}),
      ...(decision.judgedPaths ? { judgedPaths: decision.judgedPaths } : {}),
      ...(traceparent !== undefined ? { traceparent } : {}),
    });
    const settled = await settleOrAbandon(execution, signal, block.name);
    const result =
      settled.duration_ms === undefined
        ? { ...settled, duration_ms: Math.round(performance.now() - started) }
        : settled;
    return { result, outcome: signal.aborted ? "aborted" : result.is_error ? "error" : "ok" };
  } catch (err) {
    // The contract says tools never throw; if one does, the turn still goes on.
    return {
      result: { ...errorResult(`${block.name} crashed: ${describeError(err)}`), duration_ms: 0 },
      outcome: "error",
    };
  }
}

/** The answer for the permission-wait metric: the decision or choice id (the gate's own ids), or `cancelled`. */
function answerKind(answer: PermissionAnswer): string {
  if (answer.kind === "decision") return answer.decision;
  return answer.kind === "choice" ? answer.choice_id : "cancelled";
}

/** The tool's result, or an error result once it outlives an abort by ABORT_GRACE_MS. */
function settleOrAbandon(
  execution: Promise<ToolResult>,
  signal: AbortSignal,
  name: string,
): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      timer = setTimeout(
        () =>
          resolve(errorResult(`aborted: ${name} did not stop within ${ABORT_GRACE_MS} ms and was abandoned`)),
        ABORT_GRACE_MS,
      );
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    execution.then(resolve, reject).finally(() => {
      signal.removeEventListener("abort", onAbort);
      if (timer) clearTimeout(timer);
    });
  });
}

/** Live output streamed to clients per tool call; past this, clients wait for the tool_result. */
export const LIVE_OUTPUT_LIMIT_CHARS = 1_000_000;

/**
 * Forwards a running tool's output as `tool_output` deltas for watching clients (the
 * tool_result stays authoritative). A runaway command must not flood every client, so the
 * live stream stops with a note after LIVE_OUTPUT_LIMIT_CHARS.
 */
function liveOutput(toolCallId: string, emit: ToolRunnerDeps["emit"]): (text: string) => void {
  let sent = 0;
  return (text) => {
    if (text === "" || sent > LIVE_OUTPUT_LIMIT_CHARS) return;
    const room = LIVE_OUTPUT_LIMIT_CHARS - sent;
    const delta =
      text.length <= room
        ? text
        : `${text.slice(0, room)}\n[live output stopped after ${LIVE_OUTPUT_LIMIT_CHARS} characters; the result follows when the command ends]\n`;
    sent += text.length <= room ? text.length : room + 1;
    emit({ type: "tool_output", tool_call_id: toolCallId, text_delta: delta });
  };
}
