/**
 * The agent runtime: owns one session, the turn loop, the queues, the mode and model
 * controllers and the open requests, and serves the per-agent protocol to any number of
 * connections (ARCHITECTURE §4). Command handling lives in commands.ts.
 */
import type { Connection } from "../contracts/connection.ts";
import type { PermissionAnswer, PermissionAsk, PermissionGate } from "../contracts/permission-gate.ts";
import type { ModelSpec, ProviderToolSpec, ProviderUsage } from "../contracts/provider.ts";
import type { NewEntry, SessionStore } from "../contracts/session-store.ts";
import type { AnyTool, UiAsk } from "../contracts/tool.ts";
import type { AgentStatus, Message, Usage } from "../types/shared.ts";
import type { WireError } from "../wire/errors.ts";
import type { Compaction } from "./compaction.ts";
import { newId } from "./ids.ts";
import type { ModelController } from "./model-controller.ts";
import type { ModeController } from "./modes/mode-controller.ts";
import { type OutboundEvent, Outbox } from "./outbox.ts";
import { AgentState } from "./state.ts";
import { buildSystemPrompt } from "./system-prompt.ts";
import { runTurnLoop, type UserInput, userMessage } from "./turn/turn-loop.ts";

export const PROTOCOL_VERSION = "0.1.0";

export type HeadlessPolicy = "deny" | "allow_if_rule_matches" | "queue";

export interface RuntimeOptions {
  cwd: string;
  home: string;
  serverVersion: string;
  session: SessionStore;
  tools: AnyTool[];
  gate: PermissionGate;
  modes: ModeController;
  models: ModelController;
  compaction: Compaction;
  headlessPolicy?: HeadlessPolicy;
  /** How long a `queue` headless request waits for a responder. */
  headlessTimeoutMs?: number;
  basePrompt?: string;
}

interface ActiveTurn {
  id: string;
  abort: AbortController;
  done: Promise<void>;
}

export class AgentRuntime {
  readonly outbox = new Outbox();
  readonly state: AgentState;
  readonly tools: ReadonlyMap<string, AnyTool>;
  readonly steerQueue: UserInput[] = [];
  readonly followUpQueue: UserInput[] = [];
  private turn: ActiveTurn | undefined;
  /** The latest turn including its between-turn compaction; close() waits for it. */
  private background: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(readonly options: RuntimeOptions) {
    this.state = new AgentState((status, detail) => this.emitStatus(status, detail));
    this.tools = new Map(options.tools.map((t) => [t.name, t]));
  }

  get session(): SessionStore {
    return this.options.session;
  }

  get modes(): ModeController {
    return this.options.modes;
  }

  get models(): ModelController {
    return this.options.models;
  }

  get turnActive(): boolean {
    return this.turn !== undefined;
  }

  capabilities(): string[] {
    return [
      "streaming-deltas",
      "mode-catalog",
      "mode-switch",
      "model-catalog",
      "model-switch",
      "ui:select",
      "ui:confirm",
      "ui:input",
      "ui:editor",
      ...this.models.capabilities(),
    ];
  }

  /** A new client: `hello`, then `sync` with everything it needs to render (PROTOCOL §9.1). */
  attach(connection: Connection): void {
    this.outbox.attach(connection);
    this.outbox.sendTo(connection, {
      type: "hello",
      protocol_version: PROTOCOL_VERSION,
      server_version: this.options.serverVersion,
      capabilities: this.capabilities(),
    });
    this.outbox.sendTo(connection, this.syncEvent());
  }

  detach(connectionId: string): void {
    this.outbox.detach(connectionId);
  }

  syncEvent(): OutboundEvent {
    return {
      type: "sync",
      status: this.state.status,
      mode: this.modes.current.name,
      capabilities: this.capabilities(),
      live_window: this.session.liveWindow(),
      pending_requests: this.state.pending.list(),
    };
  }

  emit(event: OutboundEvent): void {
    this.outbox.emit(event);
  }

  /** Appends to the session; a failed durable write is fatal for this agent. */
  persist(entry: NewEntry): void {
    try {
      this.session.append(entry);
    } catch (err) {
      const message = `session write failed: ${(err as Error).message}`;
      this.emit({ type: "error", code: "INTERNAL_ERROR", message, fatal: true });
      this.state.setFatal(message);
      throw err;
    }
  }

  /** Accepts a prompt while idle: the user message is on disk before the caller acknowledges it. */
  beginTurn(input: UserInput): Message {
    const message = userMessage(input, newId("msg"));
    this.persist({ type: "message", message });
    return message;
  }

  startTurn(first: Message): void {
    const abort = new AbortController();
    const id = newId("turn");
    let release!: () => void;
    const done = new Promise<void>((r) => {
      release = r;
    });
    this.turn = { id, abort, done };
    this.state.setTurnActive(true);
    this.emit({ type: "turn_start", turn_id: id });
    this.emit({ type: "message_complete", message_id: first.id, message: first });
    this.background = this.playTurn(id, abort).finally(release);
  }

  private async playTurn(turnId: string, abort: AbortController): Promise<void> {
    let usage: Usage = { input: 0, output: 0 };
    let error: WireError | undefined;
    try {
      const outcome = await runTurnLoop(this.turnDeps(), abort.signal);
      usage = outcome.usage;
      error = outcome.error;
    } catch (err) {
      error = { code: "INTERNAL_ERROR", message: (err as Error).message };
    }
    for (const id of this.state.pending.ids()) this.cancelRequest(id, "turn ended");
    if (error && !this.closed)
      this.emit({ type: "error", code: error.code, message: error.message, fatal: false });
    this.emit({ type: "turn_end", turn_id: turnId, usage });
    this.turn = undefined;
    this.state.setTurnActive(false);
    if (this.closed) return;
    await this.options.compaction.betweenTurns();
    this.startNextFollowUp();
  }

  private startNextFollowUp(): void {
    if (this.turn || this.closed || this.state.busy) return;
    const next = this.followUpQueue.shift();
    if (next) this.startTurn(this.beginTurn(next));
  }

  /** Cancels the turn: provider stream, running tools, open requests. Queues are cleared. */
  async abort(): Promise<{ cleared: number }> {
    const cleared = this.steerQueue.length + this.followUpQueue.length;
    this.steerQueue.length = 0;
    this.followUpQueue.length = 0;
    const turn = this.turn;
    if (!turn) return { cleared };
    turn.abort.abort();
    for (const id of this.state.pending.ids()) this.cancelRequest(id, "aborted");
    await turn.done;
    return { cleared };
  }

  /** Stdin EOF or shutdown: stop work, release the session. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.abort();
    await this.background;
    this.session.close();
  }

  private turnDeps() {
    return {
      tools: this.tools,
      gate: this.options.gate,
      ask: (ask: PermissionAsk, signal: AbortSignal) => this.askPermission(ask, signal),
      askUser: (ask: UiAsk) => this.askUser(ask),
      cwd: this.options.cwd,
      mode: () => this.modes.policy(),
      emit: (e: OutboundEvent) => this.emit(e),
      newId,
      models: this.models,
      systemPrompt: () => this.systemPrompt(),
      toolSpecs: () => this.toolSpecs(),
      window: () => this.session.liveWindow().messages,
      persistMessage: (message: Message) => this.persist({ type: "message", message }),
      persistToolResult: (message: Message, durationMs: number | undefined) =>
        this.persist(
          durationMs === undefined
            ? { type: "tool_result", message }
            : { type: "tool_result", message, duration_ms: durationMs },
        ),
      takeSteers: () => this.steerQueue.splice(0),
      beforeProviderCall: (signal: AbortSignal) => this.options.compaction.beforeProviderCall(signal),
      compactAfterOverflow: (signal: AbortSignal) => this.options.compaction.afterOverflow(signal),
      onProviderUsage: (usage: ProviderUsage, spec: ModelSpec, messageId: string) =>
        this.emit(this.options.compaction.recordUsage(usage, spec, messageId)),
      onRetry: (detail: string) => this.emit({ type: "status", status: this.state.status, detail }),
    };
  }

  systemPrompt(): string {
    return buildSystemPrompt({
      cwd: this.options.cwd,
      home: this.options.home,
      basePrompt: this.options.basePrompt,
      modeAddition: this.modes.current.promptAddition,
      toolNames: [...this.visibleTools().map((t) => t.name)],
    });
  }

  private visibleTools(): AnyTool[] {
    const allowed = this.modes.current.allowedTools;
    const all = [...this.tools.values()];
    return allowed ? all.filter((t) => allowed.includes(t.name)) : all;
  }

  private toolSpecs(): ProviderToolSpec[] {
    return this.visibleTools().map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.parameters as unknown as Record<string, unknown>,
    }));
  }

  private emitStatus(status: AgentStatus, detail?: string): void {
    this.emit(detail === undefined ? { type: "status", status } : { type: "status", status, detail });
  }

  private async askPermission(ask: PermissionAsk, signal: AbortSignal): Promise<PermissionAnswer> {
    if (signal.aborted) return { kind: "cancelled", reason: "aborted" };
    const headless = this.headlessAnswer();
    if (headless) return headless;
    const request_id = newId("req");
    const event = { type: "permission_request" as const, request_id, ...ask };
    const answer = this.state.pending.waitPermission(event);
    this.emit(event);
    const timer = this.headlessTimer(request_id);
    const result = await answer;
    if (timer) clearTimeout(timer);
    this.emit(resolvedEvent(request_id, result));
    return result;
  }

  private async askUser(ask: UiAsk): Promise<string | string[] | null> {
    if (this.headlessAnswer()) return null;
    const request_id = newId("req");
    const event = { type: "ui_request" as const, request_id, ...ask };
    const answer = this.state.pending.waitUi(event);
    this.emit(event);
    const timer = this.headlessTimer(request_id);
    const value = await answer;
    if (timer) clearTimeout(timer);
    this.emit({ type: "ui_resolved", request_id, value });
    return value;
  }

  /** With nobody to ask, `deny` and `allow_if_rule_matches` answer at once (grants already ran). */
  private headlessAnswer(): PermissionAnswer | undefined {
    if (this.outbox.hasInteractiveResponder()) return undefined;
    const policy = this.options.headlessPolicy ?? "deny";
    if (policy === "queue") return undefined;
    return { kind: "cancelled", reason: `no interactive client is attached (headless policy: ${policy})` };
  }

  private headlessTimer(requestId: string): ReturnType<typeof setTimeout> | undefined {
    if (this.outbox.hasInteractiveResponder() || this.options.headlessPolicy !== "queue") return undefined;
    const ms = this.options.headlessTimeoutMs ?? 300_000;
    return setTimeout(() => {
      this.emit({
        type: "error",
        code: "TIMEOUT",
        message: `request ${requestId} timed out after ${ms} ms`,
        fatal: false,
      });
      this.cancelRequest(requestId, "headless timeout");
    }, ms);
  }

  cancelRequest(requestId: string, reason: string): void {
    this.state.pending.cancel(requestId, reason);
  }
}

function resolvedEvent(requestId: string, answer: PermissionAnswer): OutboundEvent {
  switch (answer.kind) {
    case "choice":
      return {
        type: "permission_resolved",
        request_id: requestId,
        choice_id: answer.choice_id,
        ...src(answer.source),
      };
    case "decision":
      return {
        type: "permission_resolved",
        request_id: requestId,
        decision: answer.decision,
        ...src(answer.source),
      };
    case "cancelled":
      return { type: "permission_resolved", request_id: requestId, decision: "deny", source: answer.reason };
  }
}

function src(source: string | undefined): { source?: string } {
  return source === undefined ? {} : { source };
}
