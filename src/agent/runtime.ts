/**
 * The agent runtime: owns one session, the turn loop, the queues, the mode and model
 * controllers and the open requests, and serves the per-agent protocol to its client (stdio
 * for `shard agent`, whether a user or the daemon is on the other end; an in-process
 * connection for `shard run`). Everything about many clients (roles, first answer wins,
 * headless policy) is the daemon broker's (docs/daemon.md). Command handling lives in
 * protocol/commands.ts, which uses only the operations below, never the parts they touch.
 */
import type { Connection } from "../contracts/connection.ts";
import type { PermissionAsk, PermissionGate } from "../contracts/permission-gate.ts";
import type { ModelSpec, ProviderEvent, ProviderToolSpec, ProviderUsage } from "../contracts/provider.ts";
import type { NewEntry, SessionStore } from "../contracts/session-store.ts";
import type { AnyTool, UiAsk } from "../contracts/tool.ts";
import type { ToolSource } from "../contracts/tool-source.ts";
import { retryDetail } from "../providers/retry.ts";
import type { AgentSandbox } from "../sandbox/agent-sandbox.ts";
import type { CompactionConfig } from "../session/compaction/compaction-config.ts";
import { SwitchableSession } from "../session/switchable-session.ts";
import type { AgentSnapshot } from "../snapshot/agent-snapshot.ts";
import { syncFromSnapshot } from "../snapshot/agent-snapshot.ts";
import { recordsInWindow } from "../snapshot/tool-call-records.ts";
import { describeError } from "../support/describe-error.ts";
import { newId } from "../support/ids.ts";
import type { TelemetrySpan } from "../telemetry/telemetry.ts";
import { toolAllowed } from "../tools/tool-pattern.ts";
import type { SyncEvent } from "../types/agent-events.ts";
import type { AgentStatus, Usage } from "../types/agent-state.ts";
import type { UnsequencedAgentEvent } from "../types/catalog.ts";
import { PROTOCOL_VERSION } from "../types/envelope.ts";
import type { Message, ToolCallBlock } from "../types/messages.ts";
import type { PermissionRequest, UiRequest } from "../types/permissions.ts";
import type { Response } from "../types/response.ts";
import type { SessionEntry } from "../types/session-entries.ts";
import type { TurnEndEvent } from "../types/stream-events.ts";
import { type Failure, failure, type WireError } from "../wire/errors.ts";
import { AgentBudget } from "./budget/agent-budget.ts";
import { BudgetSwitch } from "./budget/budget-switch.ts";
import { TurnCheckpoints } from "./checkpoints/turn-checkpoints.ts";
import { Compaction, type ManualCompaction } from "./compaction/compaction-tiers.ts";
import { InputQueues } from "./input-queues.ts";
import { describeModel, type ModelController } from "./models/model-controller.ts";
import type { ModeController } from "./modes/mode-controller.ts";
import { Outbox } from "./protocol/outbox.ts";
import { ClientReads } from "./requests/client-reads.ts";
import { ClientRequests } from "./requests/client-requests.ts";
import type { DaemonLink } from "./requests/daemon-link.ts";
import type { PermissionOutcome, PermissionReply } from "./requests/pending-requests.ts";
import { INTERRUPTED_TURN_MESSAGE, recordTurnFailure } from "./resume/interrupted-turn.ts";
import { SandboxSwitch } from "./sandbox/sandbox-switch.ts";
import { AgentState } from "./state.ts";
import { buildSystemPrompt } from "./system-prompt.ts";
import type { ParsedToolCall } from "./turn/assistant-builder.ts";
import type { TurnError } from "./turn/turn-loop.ts";
import { endTurnSpan, startTurnSpan } from "./turn/turn-telemetry.ts";
import { type UserInput, userMessage } from "./turn/user-message.ts";

export interface RuntimeOptions {
  cwd: string;
  home: string;
  serverVersion: string;
  session: SessionStore;
  tools: AnyTool[];
  gate: PermissionGate;
  modes: ModeController;
  models: ModelController;
  compaction: CompactionConfig;
  basePrompt?: string;
  /**
   * Tool calls of a resumed session whose permission question was open when the previous
   * runtime died (src/agent/resume/open-permission-asks.ts): the turn resumes with them as
   * soon as a client is attached, asking again.
   */
  openAsks?: ToolCallBlock[];
  /** The OS sandbox of `bash` and the file tools; its state goes to every client in `sync`. */
  sandbox?: AgentSandbox;
  /** Tools beyond `tools` that change while the agent runs (MCP servers); started at the first turn. */
  toolSource?: ToolSource;
  /** The client serves reads of files (`--client-reads`: an editor's unsaved buffers). */
  clientReads?: boolean;
  /** The daemon is reached over stdio (`--daemon-link stdio`): its answers come in as `daemon_response`. */
  daemonLink?: DaemonLink;
}

interface ActiveTurn {
  id: string;
  /** The user message that started it: what a retry of a failed turn sends again. */
  promptId: string;
  abort: AbortController;
  /** Who aborted it (an abort's `source`), for `turn_end.aborted_by`. */
  abortedBy?: string;
  done: Promise<void>;
}

export class AgentRuntime {
  /** The built-in tools (what `--tools` selected). */
  readonly tools: ReadonlyMap<string, AnyTool>;
  /**
   * Every tool the model was offered at its latest provider call (built-ins and the tool
   * source's): the calls in its answer run against this set.
   */
  private readonly offered = new Map<string, AnyTool>();
  private readonly outbox: Outbox;
  private readonly state: AgentState;
  private readonly compaction: Compaction;
  private readonly requests: ClientRequests;
  private readonly clientReads: ClientReads | undefined;
  private readonly queues: InputQueues;
  private turn: ActiveTurn | undefined;
  /** The latest turn including its between-turn compaction; close() waits for it. */
  private background: Promise<void> = Promise.resolve();
  /** Long commands still running (a manual compaction); close() waits for them. */
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;
  private openAsks: ToolCallBlock[];
  /** `set_sandbox`; absent when the runtime was built without a sandbox. */
  readonly sandboxSwitch: SandboxSwitch | undefined;
  /** A checkpoint before each turn that may change files; `list_checkpoints`, `restore_checkpoint`. */
  readonly checkpoints: TurnCheckpoints;
  /** The session written: a fork replaces it on `restore_checkpoint` with `conversation`. */
  private readonly switchable: SwitchableSession;
  /** Spending against the agent's limits, enforced at each provider boundary (docs/usage.md). */
  readonly budget: AgentBudget;
  /** `set_budget`. */
  readonly budgetSwitch: BudgetSwitch;

  constructor(readonly options: RuntimeOptions) {
    this.switchable = new SwitchableSession(options.session);
    const recorded = AgentBudget.fromSession(options.session.entries());
    this.budget = new AgentBudget(recorded.budget ?? null, recorded.spent);
    this.outbox = new Outbox(this.initialSnapshot());
    this.state = new AgentState((status, detail) => this.emitStatus(status, detail));
    this.compaction = new Compaction({
      config: options.compaction,
      session: this.switchable,
      models: options.models,
      emit: (event) => this.emit(event),
      setCompacting: (active) => this.state.setCompacting(active),
    });
    this.tools = new Map(options.tools.map((t) => [t.name, t]));
    this.refreshOffered();
    this.queues = new InputQueues((entry) => this.persist(entry));
    this.requests = new ClientRequests(this.state.pending, (event) => this.emit(event));
    if (options.clientReads === true) this.clientReads = new ClientReads((event) => this.emit(event));
    this.openAsks = options.openAsks ?? [];
    this.checkpoints = new TurnCheckpoints({
      home: options.home,
      cwd: options.cwd,
      sessionId: this.switchable.sessionId,
      report: (message) => this.emit({ type: "error", code: "INTERNAL_ERROR", message, fatal: false }),
    });
    const sandbox = options.sandbox;
    this.sandboxSwitch =
      sandbox &&
      new SandboxSwitch({
        sandbox,
        ask: (ask) => this.requests.standingPermission(ask),
        cancel: (requestId, reason) => this.requests.cancel(requestId, reason),
        applied: (mode) => {
          this.persist({ type: "sandbox_change", mode });
          this.emit({ type: "sandbox_changed", sandbox: sandbox.state() });
        },
        failed: (message) => this.emit({ type: "error", code: "INVALID_REQUEST", message, fatal: false }),
      });
    this.budgetSwitch = new BudgetSwitch({
      budget: this.budget,
      ask: (ask) => this.requests.standingPermission(ask),
      cancel: (requestId, reason) => this.requests.cancel(requestId, reason),
      applied: (budget) => {
        this.persist({ type: "budget_change", budget_usd: budget });
        this.budget.setBudget(budget);
        this.emitBudget();
      },
    });
  }

  /** Every client sees the agent's spending and whether a limit stopped it. */
  emitBudget(): void {
    this.emit({ type: "budget_changed", budget: this.budget.state() });
  }

  /** One provider call: in the session (the ledger's part there), against the limits, then `usage`. */
  private recordUsage(turnId: string, usage: ProviderUsage, spec: ModelSpec, messageId: string): void {
    const event = this.compaction.recordUsage(usage, spec, messageId);
    this.persist({
      type: "usage",
      turn_id: turnId,
      model: spec.id,
      input: usage.input,
      output: usage.output,
      ...(usage.cache_read !== undefined ? { cache_read: usage.cache_read } : {}),
      ...(usage.cache_write !== undefined ? { cache_write: usage.cache_write } : {}),
      cost_usd: event.cost ?? null,
    });
    const before = this.budget.exceeded()?.scope;
    this.budget.record(event.cost);
    // `usage` moves `spent_usd` in every snapshot; `budget_changed` only when a limit is crossed.
    this.emit({ ...event, turn_id: turnId });
    if (this.budget.exceeded()?.scope !== before) this.emitBudget();
  }

  get session(): SessionStore {
    return this.switchable;
  }

  /**
   * Continues in `next` (a fork of the session, opened by the caller) between turns: later
   * entries go there, and every client gets a fresh `sync` with its id and live window, as a
   * new runtime generation would send (docs/checkpoints.md).
   */
  switchSession(next: SessionStore): void {
    this.switchable.switchTo(next);
    const live_window = next.liveWindow();
    const {
      tool_calls: calls,
      turn_id: _turn,
      streaming_message: _streaming,
      retry: _retry,
      ...kept
    } = this.snapshot;
    const tool_calls = recordsInWindow(calls, live_window);
    this.outbox.resync({
      ...kept,
      session_id: next.sessionId,
      live_window,
      ...(tool_calls.length > 0 ? { tool_calls } : {}),
    });
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

  get activeTurnId(): string | undefined {
    return this.turn?.id;
  }

  get status(): AgentStatus {
    return this.state.status;
  }

  /** A turn or a compaction is running. */
  get busy(): boolean {
    return this.state.busy;
  }

  /** Nothing runs and nothing is queued: the moment for compact and fork. */
  isBetweenTurns(): boolean {
    return !this.turnActive && !this.state.busy && this.queues.size === 0;
  }

  /** The permission and UI requests waiting for an answer, oldest first. */
  openRequests(): (PermissionRequest | UiRequest)[] {
    return this.state.pending.list();
  }

  /** An answer to an open permission request; one for a request no longer open is dropped. */
  answerPermission(reply: PermissionReply): PermissionOutcome {
    return this.state.pending.answerPermission(reply);
  }

  /** An answer to an open UI request; one for a request no longer open is dropped. */
  /** A `client_read_response`: false when no read of that id is waiting. */
  answerClientRead(requestId: string, content: string | undefined): boolean {
    return this.clientReads?.answer(requestId, content) ?? false;
  }

  /** A `daemon_response`: undefined when a request of this link took it, else why it is refused. */
  answerDaemon(id: string, response: Response): Failure | undefined {
    const link = this.options.daemonLink;
    if (link === undefined)
      return failure(
        "INVALID_REQUEST",
        "daemon_response: this runtime has no daemon link (--daemon-link stdio)",
      );
    return link.answer(id, response);
  }

  answerUi(requestId: string, value: string | string[] | null): void {
    this.state.pending.answerUi(requestId, value);
  }

  /** A steer or follow-up, on disk before the caller acknowledges it (input-queues.ts). */
  queueInput(behavior: "steer" | "follow_up", input: UserInput): void {
    this.queues.enqueue(behavior, input);
  }

  /** `session_op compact`: the caller calls `release()` once its response is out (Compaction.manual). */
  compactNow(keepRecentTokens: number | undefined): Promise<ManualCompaction> {
    return this.compaction.manual(keepRecentTokens);
  }

  /** A correlated answer to the client that sent the command. */
  reply(connection: Connection, response: Response): void {
    this.outbox.reply(connection, response);
  }

  capabilities(): string[] {
    const sandbox = this.options.sandbox;
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
      // Commands are confined by the OS here (docs/sandbox.md); absent where they cannot be.
      ...(sandbox !== undefined && sandbox.state().unavailable === undefined ? ["sandbox"] : []),
    ];
  }

  /**
   * A new client: `hello`, then `sync` with everything it needs to render (docs/protocol.md §2).
   */
  attach(connection: Connection): void {
    this.outbox.attach(connection);
    this.outbox.sendTo(connection, {
      type: "hello",
      protocol_version: PROTOCOL_VERSION,
      server_version: this.options.serverVersion,
      capabilities: this.capabilities(),
    });
    this.outbox.sendTo(connection, this.syncEvent());
    this.resumeOpenAsks();
  }

  /** The interrupted turn goes on where it stood: its open questions are asked again. */
  private resumeOpenAsks(): void {
    if (this.openAsks.length === 0 || this.turn || this.closed) return;
    const calls = this.openAsks;
    this.openAsks = [];
    this.playNewTurn(calls.map((block) => ({ block })));
  }

  detach(connectionId: string): void {
    this.outbox.detach(connectionId);
  }

  /** What every emitted event has made of the agent's state (src/snapshot). */
  get snapshot(): AgentSnapshot {
    return this.outbox.snapshot;
  }

  syncEvent(): SyncEvent {
    return syncFromSnapshot(this.snapshot);
  }

  emit(event: UnsequencedAgentEvent): void {
    this.outbox.emit(event);
  }

  /** Appends to the session; a failed durable write is fatal for this agent. */
  persist(entry: NewEntry): SessionEntry {
    try {
      return this.session.append(entry);
    } catch (err) {
      const message = `session write failed: ${describeError(err)}`;
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
    this.playNewTurn([], first);
  }

  /** A turn that starts with `first` (a prompt), or with the resumed tool calls. */
  private playNewTurn(resumed: ParsedToolCall[], first?: Message): void {
    const abort = new AbortController();
    const id = newId("turn");
    let release!: () => void;
    const done = new Promise<void>((r) => {
      release = r;
    });
    // A resumed turn retries from the prompt that started it before the restart.
    const promptId =
      first?.id ?? this.snapshot.live_window.messages.findLast((m) => m.role === "user")?.id ?? "";
    this.turn = { id, promptId, abort, done };
    this.state.setTurnActive(true);
    this.emit({ type: "turn_start", turn_id: id });
    if (first) this.emit({ type: "message_complete", message_id: first.id, message: first });
    const span = startTurnSpan({
      sessionId: this.session.sessionId,
      turnId: id,
      model: this.models.current.id,
      mode: this.modes.current.name,
      ...(first ? { prompt: first } : {}),
    });
    this.background = this.playTurn(id, promptId, abort, resumed, span).finally(release);
  }

  private async playTurn(
    turnId: string,
    promptId: string,
    abort: AbortController,
    resumed: ParsedToolCall[],
    span: TelemetrySpan,
  ): Promise<void> {
    let usage: Usage = { input: 0, output: 0 };
    let error: TurnError | undefined;
    try {
      this.models.prepare();
      // The turn machinery (providers, tool runner, validators) loads on the first turn, not at start-up.
      const { runTurnLoop } = await import("./turn/turn-loop.ts");
      this.options.gate.prepare?.();
      // MCP servers start here, at the first turn, not with the agent (start-up stays fast).
      // A project's .mcp.json may first ask the person to trust it; an abort cancels that question.
      await untilAborted(
        this.options.toolSource?.prepare({
          ask: (ask, signal) => this.requests.permission(ask, signal),
          signal: abort.signal,
        }),
        abort.signal,
      );
      // A resumed turn runs its calls before any provider call: they need the tools now.
      this.refreshOffered();
      const outcome = await runTurnLoop(this.turnDeps(turnId, promptId, span), abort.signal, resumed);
      usage = outcome.usage;
      error = outcome.error;
    } catch (err) {
      error = { code: "INTERNAL_ERROR", message: describeError(err) };
    }
    this.requests.cancelAll("turn ended");
    // Before turn_end: a client that lists checkpoints after it sees what this turn changed.
    await this.checkpoints.endTurn(turnId, this.snapshot.live_window.messages.at(-1)?.id);
    // Closing mid-turn (stdin EOF: the daemon went away, or a shutdown) cuts the reply off:
    // the transcript says so. A user's abort is not a failure.
    if (!error && this.closed && abort.signal.aborted)
      this.recordFailure(turnId, promptId, {
        kind: "interrupted",
        code: "INTERNAL_ERROR",
        message: INTERRUPTED_TURN_MESSAGE,
      });
    // A fatal failure (a session write) has already been reported by persist().
    if (error && !this.closed && this.state.status !== "error") {
      // Unless writing the failure down was itself fatal (persist() reported that).
      if (this.recordFailure(turnId, promptId, { kind: "failed", code: error.code, message: error.message }))
        this.emit({
          type: "error",
          code: error.code,
          message: error.message,
          fatal: false,
          ...(error.status !== undefined ? { data: { status: error.status } } : {}),
        });
    }
    const endedBy = this.turn?.id === turnId ? this.turn.abortedBy : undefined;
    const ended = this.endReason(error, abort.signal, endedBy);
    endTurnSpan(span, usage, ended.end_reason ?? "completed", error?.code);
    this.emit({ type: "turn_end", turn_id: turnId, usage, ...ended });
    this.turn = undefined;
    this.state.setTurnActive(false);
    if (this.closed || this.state.status === "error") return;
    try {
      await this.compaction.betweenTurns();
    } catch (err) {
      this.emit({
        type: "error",
        code: "INTERNAL_ERROR",
        message: `compaction failed: ${describeError(err)}`,
        fatal: false,
      });
    }
    this.startNextFollowUp();
  }

  /** How the turn ended: stopping the runtime interrupts it; a client's abort is not a failure. */
  private endReason(
    error: WireError | undefined,
    signal: AbortSignal,
    abortedBy: string | undefined,
  ): Pick<TurnEndEvent, "end_reason" | "aborted_by"> {
    if (this.closed && signal.aborted) return { end_reason: "interrupted" };
    if (error || this.state.status === "error") return { end_reason: "error" };
    if (signal.aborted) return { end_reason: "aborted", ...(abortedBy ? { aborted_by: abortedBy } : {}) };
    return { end_reason: "completed" };
  }

  /**
   * Puts a failed or cut-off turn in the transcript: a session entry (so `sync` shows it after a
   * restart), then `turn_failed`. False when the write failed: that is fatal, and persist()
   * reported it.
   */
  private recordFailure(
    turnId: string,
    promptId: string,
    failure: { kind: "failed" | "interrupted"; code: WireError["code"]; message: string },
  ): boolean {
    const after = this.snapshot.live_window.messages.at(-1)?.id;
    try {
      const recorded = recordTurnFailure((entry) => this.persist(entry), {
        ...failure,
        turn_id: turnId,
        prompt_message_id: promptId,
        ...(after !== undefined ? { after_message_id: after } : {}),
      });
      this.emit({ type: "turn_failed", failure: recorded });
      return true;
    } catch {
      return false;
    }
  }

  /** Starts the oldest queued follow-up if the agent is free (after a turn or a compaction). */
  startNextFollowUp(): void {
    if (this.turn || this.closed || this.state.busy) return;
    const next = this.queues.deliverFollowUp();
    if (next) this.startTurn(next);
  }

  /** Cancels the turn (provider stream, running tools, open requests) or a compaction. Queues are cleared. */
  async abort(by?: string): Promise<{ cleared: number }> {
    const cleared = this.queues.dropAll();
    // An event, not just the response's count: through the daemon, every attached client
    // learns that the messages it saw queued will never run.
    if (cleared > 0) this.emit({ type: "queue_dropped", count: cleared });
    this.compaction.abort();
    const turn = this.turn;
    if (!turn) return { cleared };
    if (!turn.abort.signal.aborted && by !== undefined) turn.abortedBy = by;
    turn.abort.abort();
    this.requests.cancelAll("aborted");
    await turn.done;
    return { cleared };
  }

  /** Keeps a long command's completion so close() can wait for its response to go out. */
  track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  /** Stdin EOF or shutdown: stop work, release the session. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.abort();
    this.requests.cancelAll("the agent stopped", true);
    await this.background;
    await Promise.all(this.inFlight);
    await this.options.toolSource?.close();
    this.session.close();
    this.options.sandbox?.close();
  }

  private turnDeps(turnId: string, promptId: string, span: TelemetrySpan) {
    // Built once per turn (it reads AGENTS.md files and skill folders), again only if the mode changes.
    let prompt: { mode: string; text: string } | undefined;
    const systemPrompt = () => {
      const mode = this.modes.current.name;
      if (prompt?.mode !== mode) prompt = { mode, text: this.systemPrompt() };
      return prompt.text;
    };
    return {
      span,
      tools: this.offered,
      gate: this.options.gate,
      ask: (ask: PermissionAsk, signal: AbortSignal) => this.requests.permission(ask, signal),
      askUser: (ask: UiAsk) => this.requests.ui(ask),
      ...(this.clientReads !== undefined
        ? { readClientFile: this.clientReads.read.bind(this.clientReads) }
        : {}),
      cwd: this.options.cwd,
      mode: () => this.modes.policy(),
      emit: (e: UnsequencedAgentEvent) => this.emit(e),
      newId,
      models: this.models,
      systemPrompt,
      toolSpecs: () => this.toolSpecs(),
      window: () => this.session.liveWindow().messages,
      persistMessage: (message: Message) => this.persist({ type: "message", message }),
      recordPermissionWait: (toolCallId: string, phase: "asked" | "answered") =>
        void this.persist({ type: "permission_wait", tool_call_id: toolCallId, phase }),
      persistToolResult: (message: Message, durationMs: number | undefined) =>
        this.persist(
          durationMs === undefined
            ? { type: "tool_result", message }
            : { type: "tool_result", message, duration_ms: durationMs },
        ),
      deliverSteers: () => this.queues.deliverSteers(),
      beforeTools: () => this.checkpoints.beforeTools(turnId, promptId, this.modes.policy()),
      beforeProviderCall: (signal: AbortSignal) => this.compaction.beforeProviderCall(signal),
      compactAfterOverflow: (signal: AbortSignal) => this.compaction.afterOverflow(signal),
      onProviderUsage: (usage: ProviderUsage, spec: ModelSpec, messageId: string) =>
        this.recordUsage(turnId, usage, spec, messageId),
      budgetRefusal: () => this.budget.refusal(),
      onRetry: (retry: Extract<ProviderEvent, { type: "retry" }>) => {
        const { attempt, max_attempts, delay_ms, reason } = retry;
        this.emit({ type: "turn_retry", attempt, max_attempts, delay_ms, reason });
        // Also as a status detail, for clients that predate `turn_retry` (and the activity phase).
        this.emit({ type: "status", status: this.state.status, detail: retryDetail(retry) });
      },
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
    const all = [...this.tools.values(), ...(this.options.toolSource?.tools() ?? [])];
    return allowed ? all.filter((t) => toolAllowed(allowed, t.name)) : all;
  }

  /** Built-ins are set last, so a source's tool never shadows one of ours. */
  private refreshOffered(): void {
    this.offered.clear();
    for (const tool of this.options.toolSource?.tools() ?? []) this.offered.set(tool.name, tool);
    for (const tool of this.tools.values()) this.offered.set(tool.name, tool);
  }

  /** Per provider call: a server's changed tool list reaches the model at its next request. */
  private toolSpecs(): ProviderToolSpec[] {
    this.refreshOffered();
    return this.visibleTools().map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.parameters,
    }));
  }

  /** The state before any event: what the session and the controllers hold at start-up. */
  private initialSnapshot(): AgentSnapshot {
    const { models, modes } = this.options;
    const session = this.switchable;
    const effort = models.effort();
    return {
      status: "idle",
      mode: modes.current.name,
      capabilities: this.capabilities(),
      session_id: session.sessionId,
      model: describeModel(models.current),
      ...(effort !== undefined ? { reasoning_level: effort } : {}),
      live_window: session.liveWindow(),
      pending_requests: [],
      usage: { input: 0, output: 0 },
      ...(this.options.sandbox !== undefined ? { sandbox: this.options.sandbox.state() } : {}),
      budget: this.budget.state(),
      last_seq: 0,
    };
  }

  private emitStatus(status: AgentStatus, detail?: string): void {
    this.emit(detail === undefined ? { type: "status", status } : { type: "status", status, detail });
  }
}

/** Waits for `work` unless the turn is aborted first (a server slow to start must not hold up an abort). */
function untilAborted(work: Promise<void> | undefined, signal: AbortSignal): Promise<void> {
  if (work === undefined || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener("abort", done);
      resolve();
    };
    signal.addEventListener("abort", done, { once: true });
    work.then(done, done);
  });
}
