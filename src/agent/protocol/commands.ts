/**
 * The per-agent protocol surface: one handler per runtime-owned command of the command table
 * (src/types/command-table.ts), whose return value is the response. Validation happens first;
 * every failure is a `response` with `{code, message}` and the agent carries on.
 */
import type { Connection } from "../../contracts/connection.ts";
import { describeError } from "../../support/describe-error.ts";
import {
  type AgentCommand,
  type AgentCommandType,
  type CommandMap,
  isAgentCommand,
  type ResultMap,
} from "../../types/command-table.ts";
import type { PermissionResponse, UiResponse } from "../../types/permissions.ts";
import type { SandboxMode } from "../../types/sandbox.ts";
import type { WireError } from "../../wire/errors.ts";
import { errorResponse, okResponse, salvageCorrelation } from "../../wire/response.ts";
import { unknownChoiceError } from "../../wire/unknown-choice.ts";
import { commandValidator } from "../../wire/validate.ts";
import { restoreWithConversation } from "../checkpoints/rewind-conversation.ts";
import { describeModel } from "../models/model-controller.ts";
import type { AgentRuntime } from "../runtime.ts";
import type { UserInput } from "../turn/user-message.ts";
import { type DeferredReply, fail, ok, type Reply } from "./reply.ts";
import { handleSessionOp } from "./session-op.ts";

type PromptLike = Extract<AgentCommand, { type: "prompt" | "steer" }>;

type Outcome<R> = Reply<R> | DeferredReply<R>;

type RuntimeHandler<T extends AgentCommandType> = (
  runtime: AgentRuntime,
  connection: Connection,
  command: CommandMap[T],
) => Outcome<ResultMap[T]> | Promise<Outcome<ResultMap[T]>>;

/** Every runtime-owned command's handler; the runtime's one client may answer requests (roles are the broker's call). */
const HANDLERS: { [T in AgentCommandType]: RuntimeHandler<T> } = {
  prompt: (runtime, _connection, c) => prompt(runtime, c, c.streaming_behavior),
  steer: (runtime, _connection, c) => prompt(runtime, c, "steer"),
  abort: async (runtime, connection, c) => {
    const { cleared } = await runtime.abort(c.source ?? connection.id);
    return ok(cleared > 0 ? { cleared_queued: cleared } : {});
  },
  set_mode: (runtime, _connection, c) => setMode(runtime, c.mode),
  set_sandbox: (runtime, _connection, c) => setSandbox(runtime, c.mode),
  set_budget: (runtime, _connection, c) => ok(runtime.budgetSwitch.set(c.budget_usd)),
  budget_limits: (runtime, _connection, c) => {
    const before = JSON.stringify(runtime.budget.exceeded());
    runtime.budget.setLimits(c.limits);
    if (JSON.stringify(runtime.budget.exceeded()) !== before) runtime.emitBudget();
    return ok({});
  },
  list_modes: (runtime) => ok({ modes: runtime.modes.list(), active: runtime.modes.current.name }),
  list_models: (runtime) =>
    ok({ models: runtime.models.list(), active: describeModel(runtime.models.current) }),
  set_model: (runtime, _connection, c) => setModel(runtime, c.model),
  list_reasoning_levels: (runtime) => listReasoning(runtime),
  set_reasoning_level: (runtime, _connection, c) => setReasoning(runtime, c.model, c.effort),
  list_checkpoints: (runtime) => runtime.checkpoints.list(),
  checkpoint_diff: (runtime, _connection, c) => runtime.checkpoints.diff(c.checkpoint_id),
  restore_checkpoint: (runtime, _connection, c) =>
    restoreCheckpoint(runtime, c.checkpoint_id, c.force === true, c.conversation === true),
  session_op: (runtime, _connection, c) => handleSessionOp(runtime, c),
  permission_response: (runtime, connection, c) => answerPermission(runtime, connection, c),
  ui_response: (runtime, _connection, c) => answerUi(runtime, c),
  client_read_response: (runtime, _connection, c) =>
    runtime.answerClientRead(c.request_id, c.error === undefined ? c.content : undefined)
      ? ok({})
      : fail("NOT_FOUND", `client_read_response: no read ${c.request_id} is waiting (answered or timed out)`),
  daemon_response: (runtime, _connection, c) => runtime.answerDaemon(c.id, c.response) ?? ok({}),
};

function runHandler<T extends AgentCommandType>(
  runtime: AgentRuntime,
  connection: Connection,
  type: T,
  command: CommandMap[T],
): Outcome<ResultMap[T]> | Promise<Outcome<ResultMap[T]>> {
  const handler: RuntimeHandler<T> = HANDLERS[type];
  return handler(runtime, connection, command);
}

/**
 * Validates and handles one inbound message. Resolves once the command is handled, or, for a
 * long operation, once it has started: its response follows when it ends (the runtime tracks it).
 */
export async function handleInbound(
  runtime: AgentRuntime,
  connection: Connection,
  raw: unknown,
): Promise<void> {
  const checked = commandValidator.validate(raw);
  if (!checked.ok) {
    runtime.reply(connection, errorResponse(salvageCorrelation(raw), checked.error));
    return;
  }
  const command = checked.message;
  if (!isAgentCommand(command)) {
    const message = `"${command.type}" is a daemon command; this is a direct agent connection`;
    runtime.reply(connection, errorResponse(command, { code: "INVALID_REQUEST", message }));
    return;
  }
  let outcome: Outcome<object>;
  try {
    outcome = await runHandler(runtime, connection, command.type, command);
  } catch (err) {
    outcome = fail("INTERNAL_ERROR", describeError(err));
  }
  if (isDeferred(outcome)) {
    const settled = outcome.deferred.catch((err: unknown) => fail("INTERNAL_ERROR", String(err)));
    runtime.track(settled.then((reply) => send(runtime, connection, command, reply)));
    return;
  }
  send(runtime, connection, command, outcome);
}

function send(
  runtime: AgentRuntime,
  connection: Connection,
  command: AgentCommand,
  reply: Reply<object>,
): void {
  runtime.reply(connection, reply.ok ? okResponse(command, reply.data) : errorResponse(command, reply.error));
  reply.after?.();
}

/** Input that never parsed (bad JSON, over-long line) still gets an INVALID_REQUEST response. */
export function replyUnparsable(runtime: AgentRuntime, connection: Connection, error: WireError): void {
  runtime.reply(connection, errorResponse({ type: "unknown" }, error));
}

function answerPermission(
  runtime: AgentRuntime,
  connection: Connection,
  c: PermissionResponse,
): Reply<ResultMap["permission_response"]> {
  // `source` says who answered ("answered from web", "headless"); without one, the connection.
  // `reason` reaches the model.
  const common = {
    request_id: c.request_id,
    source: c.source ?? connection.id,
    ...(c.reason !== undefined ? { reason: c.reason } : {}),
  };
  // The validator guarantees exactly one of choice_id / decision.
  const reply =
    c.choice_id !== undefined
      ? { ...common, choice_id: c.choice_id }
      : { ...common, decision: c.decision ?? "deny" };
  // Late answers are discarded silently (docs/protocol.md §5.3); an unknown choice is invalid and
  // the request stays open (§7), as through the daemon.
  const outcome = runtime.answerPermission(reply);
  if (outcome.kind === "unknown_choice" && c.choice_id !== undefined) {
    const error = unknownChoiceError(c.request_id, c.choice_id, outcome.offered);
    return fail(error.code, error.message);
  }
  return ok({});
}

function answerUi(runtime: AgentRuntime, c: UiResponse): Reply<ResultMap["ui_response"]> {
  runtime.answerUi(c.request_id, c.value);
  return ok({});
}

function prompt(
  runtime: AgentRuntime,
  c: PromptLike,
  behavior: "steer" | "follow_up" | undefined,
): Reply<ResultMap["prompt" | "steer"]> {
  const input: UserInput = { message: c.message };
  if (c.images && c.images.length > 0) input.images = c.images;
  if (input.message.trim() === "" && !input.images) {
    return fail("INVALID_REQUEST", `${c.type}: field "message": must not be empty`);
  }
  if (c.type === "steer" && c.turn_id !== undefined && c.turn_id !== runtime.activeTurnId) {
    // A strict steer is for one turn only: once it is over, the message must not start another.
    return fail(
      "CONFLICT",
      `steer: turn ${c.turn_id} is not running${runtime.activeTurnId ? ` (turn ${runtime.activeTurnId} is)` : ""}; the message was not queued`,
    );
  }
  // A spent limit refuses new work until it is raised (docs/usage.md); queued input waits for it too.
  const refusal = runtime.budget.refusal();
  if (refusal !== undefined) return fail(refusal.code, refusal.message);
  if (runtime.turnActive) {
    if (!behavior) {
      return fail(
        "INVALID_REQUEST",
        'prompt: field "streaming_behavior": required while the agent is mid-turn ("steer" or "follow_up")',
      );
    }
    runtime.queueInput(behavior, input);
    return ok({ queued: behavior });
  }
  if (runtime.status === "error") {
    return fail(
      "INTERNAL_ERROR",
      "the agent stopped after a fatal error; restart it with --session to resume",
    );
  }
  if (runtime.busy) {
    // Compacting between turns: run as soon as the agent is free.
    runtime.queueInput("follow_up", input);
    return ok({ queued: "follow_up" });
  }
  const message = runtime.beginTurn(input);
  return ok({}, () => runtime.startTurn(message));
}

function setMode(runtime: AgentRuntime, mode: string): Reply<ResultMap["set_mode"]> {
  const result = runtime.modes.set(mode);
  if (!result) {
    const names = runtime.modes.list().map((m) => m.name);
    return fail("NOT_FOUND", `unknown mode "${mode}". Modes: ${names.join(", ")}`);
  }
  if (result.changed) {
    runtime.persist({ type: "mode_change", mode });
    runtime.emit({ type: "mode_changed", previous_mode: result.previous, mode });
  }
  return ok({ previous_mode: result.previous, mode });
}

function setSandbox(runtime: AgentRuntime, mode: SandboxMode): Reply<ResultMap["set_sandbox"]> {
  const sandbox = runtime.sandboxSwitch;
  if (sandbox === undefined) return fail("INVALID_REQUEST", "set_sandbox: this agent runs without a sandbox");
  const result = sandbox.set(mode);
  return result.ok ? ok(result.result) : { ok: false, error: result.error };
}

/** Never under a running turn: its tools would write into the files being put back. */
async function restoreCheckpoint(
  runtime: AgentRuntime,
  checkpointId: string,
  force: boolean,
  conversation: boolean,
): Promise<Reply<ResultMap["restore_checkpoint"]>> {
  if (!runtime.isBetweenTurns())
    return fail("CONFLICT", "restore_checkpoint runs between turns; a turn is queued or in flight");
  if (conversation) return restoreWithConversation(runtime, checkpointId, force);
  return runtime.checkpoints.restore(checkpointId, force);
}

function setModel(runtime: AgentRuntime, model: string): Reply<ResultMap["set_model"]> {
  const result = runtime.models.select(model);
  if (!result.ok) return { ok: false, error: result.error };
  const data = {
    previous: describeModel(result.previous),
    active: describeModel(runtime.models.current),
    effective: "next_provider_call" as const,
  };
  if (result.changed) {
    runtime.persist({ type: "model_change", model: runtime.models.current.id });
    const effort = runtime.models.effort();
    runtime.emit({
      type: "model_changed",
      ...data,
      capabilities: runtime.capabilities(),
      ...(effort !== undefined ? { reasoning_level: effort } : {}),
    });
  }
  return ok(data);
}

function listReasoning(runtime: AgentRuntime): Reply<ResultMap["list_reasoning_levels"]> {
  const levels = runtime.models.levels();
  const spec = runtime.models.current;
  // A model with levels always has an active one (its choice or its default).
  const active = runtime.models.effort();
  if (levels.length === 0 || active === undefined) {
    return fail("NOT_FOUND", `model "${spec.id}" has no reasoning levels`);
  }
  return ok({ model: describeModel(spec), levels, active, effective: "next_provider_call" });
}

function setReasoning(
  runtime: AgentRuntime,
  model: string,
  effort: string,
): Reply<ResultMap["set_reasoning_level"]> {
  const spec = runtime.models.current;
  if (model !== spec.id) {
    return fail(
      "CONFLICT",
      `model "${model}" is not the active model "${spec.id}"; refresh the reasoning levels`,
    );
  }
  const levels = runtime.models.levels();
  if (!levels.some((l) => l.id === effort)) {
    const ids = levels.map((l) => l.id);
    return fail(
      "NOT_FOUND",
      `unknown effort "${effort}" for ${spec.id}${ids.length ? `. Levels: ${ids.join(", ")}` : ""}`,
    );
  }
  const previous = runtime.models.effort() ?? effort;
  const data = {
    model: describeModel(spec),
    previous,
    active: effort,
    effective: "next_provider_call" as const,
  };
  if (previous !== effort) {
    runtime.models.setEffort(spec.id, effort);
    runtime.persist({ type: "reasoning_change", model: spec.id, effort });
    runtime.emit({
      type: "reasoning_level_changed",
      model: describeModel(spec),
      previous,
      active: effort,
      effective: data.effective,
    });
  }
  return ok(data);
}

function isDeferred<R>(outcome: Outcome<R>): outcome is DeferredReply<R> {
  return "deferred" in outcome;
}
