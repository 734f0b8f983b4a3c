/**
 * The per-agent protocol surface: one switch over validated commands (PROTOCOL §9).
 * Validation happens first; every failure is a `response` with `{code, message}` and the
 * agent carries on.
 */
import type { Connection } from "../contracts/connection.ts";
import { ORCHESTRATOR_COMMANDS } from "../types/catalog.ts";
import type { WireError } from "../wire/errors.ts";
import { errorResponse, okResponse, salvageCorrelation } from "../wire/response.ts";
import { commandValidator } from "../wire/validate.ts";
import { describeModel } from "./model-controller.ts";
import { fail, ok, type Reply } from "./reply.ts";
import type { AgentRuntime } from "./runtime.ts";
import { handleSessionOp } from "./session-op.ts";
import type { UserInput } from "./turn/user-message.ts";

type Command = { type: string; id?: string } & Record<string, unknown>;

export async function handleInbound(
  runtime: AgentRuntime,
  connection: Connection,
  raw: unknown,
): Promise<void> {
  const checked = commandValidator.validate(raw);
  if (!checked.ok) {
    runtime.outbox.reply(connection, errorResponse(salvageCorrelation(raw), checked.error));
    return;
  }
  const command = checked.message as Command;
  let reply: Reply;
  try {
    reply = await dispatch(runtime, connection, command);
  } catch (err) {
    reply = fail("INTERNAL_ERROR", (err as Error).message);
  }
  runtime.outbox.reply(
    connection,
    reply.ok ? okResponse(command, reply.data) : errorResponse(command, reply.error),
  );
  reply.after?.();
}

/** Input that never parsed (bad JSON, over-long line) still gets an INVALID_REQUEST response. */
export function replyUnparsable(runtime: AgentRuntime, connection: Connection, error: WireError): void {
  runtime.outbox.reply(connection, errorResponse({ type: "unknown" }, error));
}

async function dispatch(runtime: AgentRuntime, connection: Connection, c: Command): Promise<Reply> {
  switch (c.type) {
    case "prompt":
      return prompt(runtime, c, c.streaming_behavior as "steer" | "follow_up" | undefined);
    case "steer":
      return prompt(runtime, c, "steer");
    case "abort": {
      const { cleared } = await runtime.abort();
      return ok(cleared > 0 ? { cleared_queued: cleared } : undefined);
    }
    case "set_mode":
      return setMode(runtime, c.mode as string);
    case "list_modes":
      return ok({ modes: runtime.modes.list(), active: runtime.modes.current.name });
    case "list_models":
      return ok({ models: runtime.models.list(), active: describeModel(runtime.models.current) });
    case "set_model":
      return setModel(runtime, c.model as string);
    case "list_reasoning_levels":
      return listReasoning(runtime);
    case "set_reasoning_level":
      return setReasoning(runtime, c.model as string, c.effort as string);
    case "session_op":
      return handleSessionOp(runtime, c);
    case "permission_response":
    case "ui_response":
      // Observers watch; only interactive clients answer (ARCHITECTURE §6.3).
      if (connection.role === "observer") {
        return fail("PERMISSION_DENIED", `${c.type}: observer connections cannot answer requests`);
      }
      return c.type === "permission_response"
        ? answerPermission(runtime, connection, c)
        : answerUi(runtime, c);
    default:
      if (ORCHESTRATOR_COMMANDS.has(c.type)) {
        return fail("INVALID_REQUEST", `"${c.type}" is a daemon command; this is a direct agent connection`);
      }
      return fail("INVALID_REQUEST", `field "type": "${c.type}" is not handled by an agent`);
  }
}

function answerPermission(runtime: AgentRuntime, connection: Connection, c: Command): Reply {
  // `source` says which client answered ("answered from web"); `reason` reaches the model.
  const common = {
    request_id: c.request_id as string,
    source: connection.id,
    ...(typeof c.reason === "string" ? { reason: c.reason } : {}),
  };
  const reply =
    c.choice_id !== undefined
      ? { ...common, choice_id: c.choice_id as string }
      : { ...common, decision: c.decision as "allow" };
  // Late or unknown answers are discarded silently (PROTOCOL §6.3); the command is still accepted.
  runtime.state.pending.answerPermission(reply);
  return ok();
}

function answerUi(runtime: AgentRuntime, c: Command): Reply {
  runtime.state.pending.answerUi(c.request_id as string, c.value as string | string[] | null);
  return ok();
}

function prompt(runtime: AgentRuntime, c: Command, behavior: "steer" | "follow_up" | undefined): Reply {
  const input: UserInput = { message: c.message as string };
  if (Array.isArray(c.images) && c.images.length > 0) input.images = c.images as UserInput["images"];
  if (input.message.trim() === "" && !input.images) {
    return fail("INVALID_REQUEST", `${c.type}: field "message": must not be empty`);
  }
  if (runtime.turnActive) {
    if (!behavior) {
      return fail(
        "INVALID_REQUEST",
        'prompt: field "streaming_behavior": required while the agent is mid-turn ("steer" or "follow_up")',
      );
    }
    runtime.queues.enqueue(behavior, input);
    return ok({ queued: behavior });
  }
  if (runtime.state.status === "error") {
    return fail(
      "INTERNAL_ERROR",
      "the agent stopped after a fatal error; restart it with --session to resume",
    );
  }
  if (runtime.state.busy) {
    // Compacting between turns: run as soon as the agent is free.
    runtime.queues.enqueue("follow_up", input);
    return ok({ queued: "follow_up" });
  }
  const message = runtime.beginTurn(input);
  return { ok: true, after: () => runtime.startTurn(message) };
}

function setMode(runtime: AgentRuntime, mode: string): Reply {
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

function setModel(runtime: AgentRuntime, model: string): Reply {
  const result = runtime.models.select(model);
  if (!result.ok) return { ok: false, error: result.error };
  const data = {
    previous: describeModel(result.previous),
    active: describeModel(runtime.models.current),
    effective: "next_provider_call" as const,
  };
  if (result.changed) {
    runtime.persist({ type: "model_change", model: runtime.models.current.id });
    runtime.emit({ type: "model_changed", ...data, capabilities: runtime.capabilities() });
  }
  return ok(data);
}

function listReasoning(runtime: AgentRuntime): Reply {
  const levels = runtime.models.levels();
  const spec = runtime.models.current;
  if (levels.length === 0) return fail("NOT_FOUND", `model "${spec.id}" has no reasoning levels`);
  return ok({
    model: describeModel(spec),
    levels,
    active: runtime.models.effort(),
    effective: "next_provider_call",
  });
}

function setReasoning(runtime: AgentRuntime, model: string, effort: string): Reply {
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
