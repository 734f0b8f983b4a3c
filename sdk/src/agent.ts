/**
 * One agent, whichever transport reaches it. `state` is the shared `AgentSnapshot` projection
 * kept by the shared `AgentFeed` (src/snapshot): a `sync` replaces it, every later event is
 * folded in `seq` order, events before the sync and repeated `seq`s are dropped — so `state` is
 * what a fresh `sync` would say. On top: `run` (one call, resolves at `turn_end`), `prompt` (a `Turn` to stream
 * and steer), the mode/model controls, the agent's own session operations and request handlers.
 */

import type { Static, TSchema } from "@sinclair/typebox";
import { checkResult } from "../../src/client/command-result.ts";
import { AgentFeed, type FeedGap } from "../../src/snapshot/agent-feed.ts";
import { type AgentSnapshot, emptySnapshot } from "../../src/snapshot/agent-snapshot.ts";
import type { SyncEvent } from "../../src/types/agent-events.ts";
import type {
  ListModelsResult,
  ListModesResult,
  SetModelResult,
  SetModeResult,
  SetSandboxResult,
} from "../../src/types/agent-results.ts";
import type { Usage } from "../../src/types/agent-state.ts";
import type { AgentEvent } from "../../src/types/catalog.ts";
import type {
  CheckpointDiffResult,
  CheckpointSummary,
  RestoreCheckpointResult,
} from "../../src/types/checkpoints.ts";
import type { AgentCommandType, ResultMap } from "../../src/types/command-table.ts";
import type { SandboxMode } from "../../src/types/sandbox.ts";
import type { WireError } from "../../src/wire/errors.ts";
import { sharedCheck } from "../../src/wire/schema-check.ts";
import type { AgentCallOf, AgentLink, AgentOutbound, DeleteAgentOptions } from "./agent-link.ts";
import type { AgentOptions, PromptOptions, RestoreOptions, RunOptions, RunResult } from "./agent-options.ts";
import { AgentSessions } from "./agent-sessions.ts";
import { CheckpointConflictError } from "./checkpoint-conflict.ts";
import { failed } from "./connection.ts";
import { ShardError } from "./errors.ts";
import { DEFAULT_EVENT_BUFFER, EventQueue } from "./event-queue.ts";
import { CompiledPolicy } from "./permission-policy.ts";
import { type PermissionHandler, RequestResponder, type UiHandler } from "./request-responder.ts";
import { type AgentStreamEvent, gapEvent } from "./stream-events.ts";
import {
  checkableSchema,
  type JsonSchema,
  OutputValidationError,
  outputInstruction,
  parseOutput,
  repairPrompt,
} from "./structured-output.ts";
import { Turn, withCostUsd } from "./turn.ts";
import { isQueued, TurnTracker } from "./turn-tracker.ts";

/** Both turns' tokens (and cost) of a structured run that needed its repair turn. */
function addUsage(a: Usage, b: Usage): Usage {
  const cost = a.cost === undefined && b.cost === undefined ? undefined : (a.cost ?? 0) + (b.cost ?? 0);
  return {
    ...b,
    input: a.input + b.input,
    output: a.output + b.output,
    ...(cost === undefined ? {} : { cost }),
    ...(a.cost_unknown === true || b.cost_unknown === true ? { cost_unknown: true } : {}),
  };
}

/** What `state` says before the first `sync` (nothing is known yet). */
const BEFORE_SYNC: AgentSnapshot = emptySnapshot();

export class Agent {
  /** Sync first, then `seq` in order; a seq jump asks the link for a fresh sync (src/snapshot). */
  private readonly feed: AgentFeed;
  private readonly turns = new TurnTracker();
  private readonly responder: RequestResponder;
  private readonly streams = new Set<EventQueue<AgentStreamEvent>>();
  private readonly bufferLimit: number;
  private ending: WireError | undefined;
  /** The last `declareAnswers` on its way to the daemon. */
  private declaring: Promise<void> = Promise.resolve();
  private endedResolve!: () => void;
  /** Resolves when the agent is gone (process exited, detached, connection closed for good). */
  readonly ended: Promise<void>;
  readonly sessions: AgentSessions;

  constructor(
    private readonly link: AgentLink,
    options: AgentOptions = {},
  ) {
    this.feed = new AgentFeed(() => link.resync());
    this.responder = new RequestResponder(
      link,
      options.permissions ? CompiledPolicy.compile(options.permissions) : undefined,
    );
    this.bufferLimit = options.maxBufferedEvents ?? DEFAULT_EVENT_BUFFER;
    this.sessions = new AgentSessions((command) => this.call(command));
    this.ended = new Promise((resolve) => {
      this.endedResolve = resolve;
    });
  }

  /** The daemon's id for this agent (undefined on a direct connection). */
  get id(): string | undefined {
    return this.link.agentId;
  }

  /** The agent as `sync` would show it now. */
  get state(): AgentSnapshot {
    return this.snapshot;
  }

  private get snapshot(): AgentSnapshot {
    return this.feed.snapshot ?? BEFORE_SYNC;
  }

  // ── driving ────────────────────────────────────────────────────────────

  /**
   * Sends `message` and resolves at the turn's `turn_end` with its text and usage. With
   * `outputSchema`, also with `output`: the answer parsed and validated, after at most one
   * repair turn; an answer that still does not validate rejects with `OutputValidationError`.
   */
  run<S extends TSchema>(
    message: string,
    options: RunOptions & { outputSchema: S },
  ): Promise<RunResult & { output: Static<S> }>;
  run(
    message: string,
    options: RunOptions & { outputSchema: JsonSchema },
  ): Promise<RunResult & { output: unknown }>;
  run(message: string, options?: RunOptions): Promise<RunResult>;
  async run(
    message: string,
    options: RunOptions & { outputSchema?: TSchema | JsonSchema } = {},
  ): Promise<RunResult & { output?: unknown }> {
    if (options.outputSchema === undefined) return this.runTurn(message, options);
    const schema = checkableSchema(options.outputSchema);
    const first = await this.runTurn(message + outputInstruction(schema), options);
    const parsed = parseOutput(first.text, schema);
    if (parsed.ok) return { ...first, output: parsed.value };
    // The repair is a follow-up in the same session: the images were already sent with the prompt.
    const second = await this.runTurn(
      repairPrompt(parsed.issues),
      options.signal ? { signal: options.signal } : {},
    );
    const repaired = parseOutput(second.text, schema);
    if (!repaired.ok) throw new OutputValidationError(repaired.issues, second.text);
    return { ...second, usage: withCostUsd(addUsage(first.usage, second.usage)), output: repaired.value };
  }

  private async runTurn(message: string, options: RunOptions): Promise<RunResult> {
    options.signal?.throwIfAborted();
    const turn = await this.prompt(message, {
      ...(options.images ? { images: options.images } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      record: false,
    });
    const onAbort = () => void turn.abort().catch(() => undefined);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const result = await turn.done;
      if (options.signal?.aborted) throw options.signal.reason;
      if (result.error) throw ShardError.from(result.error);
      return result;
    } finally {
      options.signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Sends `message`; resolves once accepted, with the `Turn` it starts (or is queued for). */
  async prompt(message: string, options: PromptOptions = {}): Promise<Turn> {
    this.throwIfEnded();
    await this.declaring;
    const behavior = options.behavior ?? (this.isBusy() ? "follow_up" : undefined);
    const turn = new Turn(message, this.turnControls(), options.record ?? true, this.bufferLimit);
    const command: AgentOutbound = {
      type: "prompt",
      message,
      ...(options.images ? { images: options.images } : {}),
      ...(behavior ? { streaming_behavior: behavior } : {}),
    };
    const response = await this.link.request(command, {
      // Bound before any later event is handled: the turn_start follows this answer.
      onAnswer: (answer) => {
        if (!answer.success) return;
        const queued = isQueued(answer.data);
        if (queued === "follow_up") this.turns.queuedFollowUp(turn);
        else if (queued === undefined) this.turns.started(turn);
      },
    });
    if (!response.success) throw failed(response);
    if (options.timeoutMs !== undefined) this.timeTurn(turn, options.timeoutMs);
    if (isQueued(response.data) === "steer") {
      throw new ShardError(
        "INVALID_REQUEST",
        "prompt: steer joins the running turn; use turn.steer or agent.steer",
      );
    }
    return turn;
  }

  /** Ends `turn` with a `TIMEOUT` error if it has not ended within `ms` (aborting it if it runs). */
  private timeTurn(turn: Turn, ms: number): void {
    const timer = setTimeout(() => {
      if (turn.isFinished) return;
      // Running, or accepted and about to start (the runtime starts it as it accepts): abort it.
      if (!this.turns.isQueued(turn)) void this.abort().catch(() => undefined);
      turn.fail({ code: "TIMEOUT", message: `the turn did not end within ${ms} ms` }, "error");
    }, ms);
    void turn.done.then(() => clearTimeout(timer));
  }

  /** Delivers `message` into the running turn before its next model call. */
  async steer(message: string): Promise<void> {
    this.throwIfEnded();
    if (!this.isBusy()) {
      throw new ShardError("CONFLICT", "steer: no turn is running; send it with agent.prompt or agent.run");
    }
    await this.call({ type: "steer", message });
  }

  /** Cancels the running turn and drops queued steers and follow-ups (their turns end `aborted`). */
  async abort(): Promise<void> {
    this.throwIfEnded();
    const response = await this.link.request(
      { type: "abort" },
      {
        onAnswer: (answer) => {
          if (answer.success) this.turns.dropQueued();
        },
      },
    );
    if (!response.success) throw failed(response);
  }

  async setMode(mode: string): Promise<SetModeResult> {
    return this.call({ type: "set_mode", mode });
  }

  /**
   * A stricter sandbox mode applies at once; a looser one asks the person (`pending: true`) and
   * applies only if allowed — watch for `sandbox_changed` (docs/protocol-additions.md §18).
   */
  async setSandbox(mode: SandboxMode): Promise<SetSandboxResult> {
    return this.call({ type: "set_sandbox", mode });
  }

  /** The checkpoints taken before this agent's file-changing turns (and its restores), newest first. */
  async checkpoints(): Promise<CheckpointSummary[]> {
    return (await this.call({ type: "list_checkpoints" })).checkpoints;
  }

  /**
   * What `checkpointId`'s turn changed, file by file with hunks (`truncated` when larger than
   * the runtime returns). For a restore's undo checkpoint: what that restore changed.
   */
  async checkpointDiff(checkpointId: string): Promise<CheckpointDiffResult> {
    return this.call({ type: "checkpoint_diff", checkpoint_id: checkpointId });
  }

  /**
   * Puts the files back as they were before `checkpointId`'s turn (docs/checkpoints.md). Files
   * changed since the agent's last turn are a `CheckpointConflictError` naming them, and nothing
   * is written, unless `force` is true. Restoring the answer's `undo_checkpoint_id` undoes it.
   * With `conversation: true` the agent also continues from just before that turn: its session
   * is a fork (`conversation.session_id`), and this agent's state follows the `sync` that says so.
   */
  async restore(checkpointId: string, options: RestoreOptions = {}): Promise<RestoreCheckpointResult> {
    try {
      return await this.call({
        type: "restore_checkpoint",
        checkpoint_id: checkpointId,
        ...(options.force === undefined ? {} : { force: options.force }),
        ...(options.conversation === undefined ? {} : { conversation: options.conversation }),
      });
    } catch (error) {
      throw error instanceof ShardError ? CheckpointConflictError.fromError(error) : error;
    }
  }

  async listModes(): Promise<ListModesResult> {
    return this.call({ type: "list_modes" });
  }

  async setModel(model: string): Promise<SetModelResult> {
    return this.call({ type: "set_model", model });
  }

  async listModels(): Promise<ListModelsResult> {
    return this.call({ type: "list_models" });
  }

  /** Answers this agent's permission requests from code; returns the unsubscribe. */
  onPermission(handler: PermissionHandler): () => void {
    const off = this.responder.onPermission(handler);
    this.declareAnswers();
    for (const r of this.snapshot.pending_requests)
      if (r.type === "permission_request") this.responder.asked(r);
    return () => {
      off();
      this.declareAnswers();
    };
  }

  /** Answers this agent's UI requests (select, confirm, input, editor) from code. */
  onUi(handler: UiHandler): () => void {
    const off = this.responder.onUi(handler);
    this.declareAnswers();
    for (const r of this.snapshot.pending_requests) if (r.type === "ui_request") this.responder.asked(r);
    return () => {
      off();
      this.declareAnswers();
    };
  }

  /**
   * Tells the daemon which request kinds this client answers now. A prompt sent meanwhile waits
   * for it, so its turn's requests reach the handler just registered.
   */
  private declareAnswers(): void {
    const declare = this.link.declareAnswers;
    if (!declare) return;
    const kinds = this.responder.kinds();
    this.declaring = this.declaring.then(() => declare(kinds)).catch(() => undefined);
  }

  /** Every event from now on (and `gap` notices), until the agent ends or the loop breaks. */
  events(): AsyncIterableIterator<AgentStreamEvent> {
    const queue: EventQueue<AgentStreamEvent> = new EventQueue(this.bufferLimit, () =>
      this.streams.delete(queue),
    );
    if (this.ending) queue.end();
    else this.streams.add(queue);
    return queue;
  }

  /** Direct: the agent process exits; daemon: this client detaches and the agent runs on. */
  async close(): Promise<void> {
    await this.link.close();
  }

  /**
   * Deletes this daemon agent for good (`agent.delete`): its runtime is killed, every client
   * hears `agent_deleted`, and this handle ends. `{ session: true }` deletes its session files
   * too. A direct agent (`spawnAgent`) has nothing durable to delete: close it instead.
   */
  async delete(options: DeleteAgentOptions = {}): Promise<void> {
    if (!this.link.delete)
      throw new ShardError(
        "INVALID_REQUEST",
        "delete() is for a daemon's agent; a spawned agent ends with close()",
      );
    await this.link.delete(options);
  }

  // ── fed by the transport ───────────────────────────────────────────────

  /** One event of this agent, as the connection received it. */
  receive(event: AgentEvent): void {
    const step = this.feed.receive(event);
    switch (step.kind) {
      case "synced":
        if (event.type === "sync") this.synced(event, step.gap);
        return;
      case "gap":
        this.gap(step.gap);
        return;
      case "stale":
      case "duplicate":
        return;
      case "applied":
        break;
    }
    this.turns.event(event);
    switch (event.type) {
      case "permission_request":
      case "ui_request":
        this.responder.asked(event);
        break;
      case "permission_resolved":
      case "ui_resolved":
        this.responder.resolved(event);
        break;
      default:
        break;
    }
    this.publish(event);
  }

  /** The connection dropped: what arrives before the re-attach's `sync` is stale. */
  awaitSync(): void {
    this.feed.awaitSync();
  }

  /** The daemon reports the runtime died: a turn in flight will never see its `turn_end`. */
  runtimeExited(reason: string): void {
    this.turns.failAll({ code: "INTERNAL_ERROR", message: `the agent's runtime exited: ${reason}` });
  }

  /** The agent is gone for good: open turns end with `error`, streams end. */
  end(error: WireError): void {
    if (this.ending) return;
    this.ending = error;
    this.turns.failAll(error);
    this.responder.closeAll();
    for (const s of this.streams) s.end();
    this.streams.clear();
    this.endedResolve();
  }

  get endError(): WireError | undefined {
    return this.ending;
  }

  private synced(sync: SyncEvent, gap: FeedGap | undefined): void {
    if (gap !== undefined) this.gap(gap);
    this.turns.synced(this.snapshot, gap?.reason);
    this.responder.synced(this.snapshot.pending_requests);
    this.publish(sync);
  }

  private gap({ reason, lastSeen, resumedAt }: FeedGap): void {
    const gap = gapEvent(reason, lastSeen, resumedAt, this.link.agentId);
    this.turns.event(gap);
    this.publish(gap);
  }

  private publish(event: AgentStreamEvent): void {
    for (const s of this.streams) s.push(event);
  }

  private isBusy(): boolean {
    return this.turns.busy || this.snapshot.turn_id !== undefined;
  }

  private throwIfEnded(): void {
    if (this.ending) throw ShardError.from(this.ending);
  }

  /** A typed per-agent request: its result checked against its type's result schema. */
  private async call<T extends AgentCommandType>(command: AgentCallOf<T>): Promise<ResultMap[T]> {
    this.throwIfEnded();
    const response = await this.link.request(command);
    if (!response.success) throw failed(response);
    const checked = checkResult(command.type, response.data, sharedCheck);
    if (!checked.ok) throw ShardError.from(checked.error);
    return checked.result;
  }

  private turnControls() {
    return {
      steer: (message: string) => this.steer(message),
      abort: () => this.abort(),
      followUp: (message: string) => this.prompt(message, { behavior: "follow_up" }),
    };
  }
}
