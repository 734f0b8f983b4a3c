/**
 * One ACP session: one Shard agent behind a `ShardLink`. Its events become `session/update`s,
 * its permission requests `session/request_permission`s (dismissed when another client of the
 * daemon answers first), and each `session/prompt` waits for the turn it started to end.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { RequestError } from "@agentclientprotocol/sdk";
import { AgentFeed } from "../snapshot/agent-feed.ts";
import type { AgentSnapshot } from "../snapshot/agent-snapshot.ts";
import type { SyncEvent } from "../types/agent-events.ts";
import type { AgentEvent } from "../types/catalog.ts";
import { type ClientReadRequestEvent, MAX_CLIENT_READ_CHARS } from "../types/client-reads.ts";
import type { PermissionRequest, UiRequest } from "../types/permissions.ts";
import { UpdateMapper } from "./event-updates.ts";
import { historyUpdates } from "./history-updates.ts";
import { permissionAnswer, permissionOptions } from "./permission-options.ts";
import { shardPrompt } from "./prompt-content.ts";
import { modelOption } from "./session-config.ts";
import { shardCall } from "./shard-call.ts";
import type { LinkEvents, ShardLink } from "./shard-link.ts";

/** The `session/prompt` waiting for its turn to end. */
interface TurnWaiter {
  /** A turn that was running when the prompt was queued behind it: not ours. */
  notTurn: string | undefined;
  turnId: string | undefined;
  cancelled: boolean;
  resolve(response: acp.PromptResponse): void;
  reject(error: Error): void;
}

export interface SessionOptions {
  client: acp.AgentContext;
  cwd: string;
  /** Daemon mode leaves `ask` questions to the other clients; direct mode has no one else. */
  answersUi: boolean;
  /** The runtime asks the editor for files (`client_read_request` → `fs/read_text_file`). */
  servesReads: boolean;
}

export class AcpSession {
  private link: ShardLink | undefined;
  private sessionId = "";
  private readonly feed: AgentFeed;
  private readonly mapper: UpdateMapper;
  /** Events that arrived before the session was bound (its first `sync` among them). */
  private early: AgentEvent[] = [];
  private waiter: TurnWaiter | undefined;
  /** Open `session/request_permission`s by Shard request id: aborting one dismisses the dialog. */
  private readonly asking = new Map<string, AbortController>();
  private closed = false;

  constructor(private readonly options: SessionOptions) {
    this.feed = new AgentFeed(() => this.link?.resync());
    this.mapper = new UpdateMapper(options.cwd);
  }

  get id(): string {
    return this.sessionId;
  }

  get snapshot(): AgentSnapshot | undefined {
    return this.feed.snapshot;
  }

  readonly linkEvents: LinkEvents = {
    event: (event) => {
      if (this.link === undefined) this.early.push(event);
      else this.apply(event);
    },
    closed: (reason) => {
      this.closed = true;
      this.waiter?.reject(RequestError.internalError(undefined, `the agent went away: ${reason}`));
      this.waiter = undefined;
      for (const controller of this.asking.values()) controller.abort();
      this.asking.clear();
    },
  };

  /**
   * Starts serving the agent behind `link` as ACP session `sessionId`. With `replay` (a
   * `session/load`) the conversation so far is sent first, as the spec asks.
   */
  async bind(sessionId: string, link: ShardLink, sync: SyncEvent, replay: boolean): Promise<void> {
    this.sessionId = sessionId;
    if (replay) {
      for (const update of historyUpdates(sync.live_window.messages, this.options.cwd))
        await this.notify(update);
    }
    this.link = link;
    const early = this.early;
    this.early = [];
    for (const event of early) this.apply(event);
  }

  async prompt(blocks: readonly acp.ContentBlock[]): Promise<acp.PromptResponse> {
    const link = this.liveLink();
    if (this.waiter !== undefined)
      throw RequestError.invalidRequest(undefined, "a prompt of this session is still running");
    const { message, images } = shardPrompt(blocks);
    const running = this.feed.snapshot?.turn_id;
    const done = new Promise<acp.PromptResponse>((resolve, reject) => {
      this.waiter = { notTurn: running, turnId: undefined, cancelled: false, resolve, reject };
    });
    try {
      await shardCall(link, {
        type: "prompt",
        message,
        ...(images.length > 0 ? { images } : {}),
        // Another client's turn is running (daemon mode): ours follows it.
        ...(running !== undefined ? { streaming_behavior: "follow_up" as const } : {}),
      });
    } catch (err) {
      this.waiter = undefined;
      throw err;
    }
    return done;
  }

  /** `session/cancel`: abort the turn; the prompt answers `cancelled` when it has ended. */
  async cancel(): Promise<void> {
    if (this.waiter === undefined || this.link === undefined) return;
    this.waiter.cancelled = true;
    for (const controller of this.asking.values()) controller.abort();
    this.asking.clear();
    await this.link.request({ type: "abort" });
  }

  async setMode(mode: string): Promise<void> {
    await shardCall(this.liveLink(), { type: "set_mode", mode });
  }

  async setModel(model: string): Promise<void> {
    await shardCall(this.liveLink(), { type: "set_model", model });
  }

  async close(): Promise<void> {
    if (this.waiter !== undefined) await this.cancel();
    this.closed = true;
    await this.link?.close();
  }

  liveLink(): ShardLink {
    if (this.link === undefined || this.closed)
      throw RequestError.internalError(
        undefined,
        "the agent of this session is gone; load the session again",
      );
    return this.link;
  }

  private apply(event: AgentEvent): void {
    const step = this.feed.receive(event);
    if (step.kind === "stale" || step.kind === "duplicate" || step.kind === "gap") return;
    if (event.type === "sync") {
      this.synced(event);
      return;
    }
    for (const update of this.mapper.updates(event, this.feed.snapshot)) void this.notify(update);
    switch (event.type) {
      case "permission_request":
        this.askPermission(event);
        return;
      case "ui_request":
        this.answerUi(event);
        break;
      case "client_read_request":
        this.serveRead(event);
        return;
      case "permission_resolved": {
        // Answered elsewhere (another client, the headless policy): dismiss the editor's dialog.
        const controller = this.asking.get(event.request_id);
        this.asking.delete(event.request_id);
        controller?.abort();
        return;
      }
      case "turn_start":
        if (
          this.waiter !== undefined &&
          this.waiter.turnId === undefined &&
          event.turn_id !== this.waiter.notTurn
        )
          this.waiter.turnId = event.turn_id;
        return;
      case "turn_end":
        this.turnEnded(event.turn_id, event.end_reason);
        return;
      case "model_changed":
        // Whoever changed it (the editor, the web), the editor's picker follows.
        void this.modelPicker().then((option) => {
          if (option !== undefined)
            void this.notify({ sessionUpdate: "config_option_update", configOptions: [option] });
        });
        return;
    }
  }

  private async modelPicker(): Promise<acp.SessionConfigOption | undefined> {
    try {
      return modelOption(await shardCall(this.liveLink(), { type: "list_models" }));
    } catch {
      return undefined;
    }
  }

  /** A (re)attachment's state: ask what is open and not asked yet, forget what is gone. */
  private synced(sync: SyncEvent): void {
    const open = new Set(sync.pending_requests.map((r) => r.request_id));
    for (const [id, controller] of this.asking) {
      if (open.has(id)) continue;
      this.asking.delete(id);
      controller.abort();
    }
    for (const request of sync.pending_requests) {
      if (this.asking.has(request.request_id)) continue;
      if (request.type === "permission_request") this.askPermission(request);
      else this.answerUi(request);
    }
    // The turn we waited for ended while we were not looking.
    const waiter = this.waiter;
    if (waiter?.turnId !== undefined && sync.turn_id !== waiter.turnId)
      this.turnEnded(waiter.turnId, undefined);
  }

  private turnEnded(turnId: string, reason: string | undefined): void {
    const waiter = this.waiter;
    if (waiter === undefined || waiter.turnId !== turnId) return;
    this.waiter = undefined;
    if (waiter.cancelled || reason === "aborted" || reason === "interrupted") {
      waiter.resolve({ stopReason: "cancelled" });
      return;
    }
    if (reason === "error") {
      const failure = this.feed.snapshot?.live_window.failures?.at(-1);
      waiter.reject(
        RequestError.internalError(
          undefined,
          failure ? `${failure.code}: ${failure.message}` : "the turn failed",
        ),
      );
      return;
    }
    waiter.resolve({ stopReason: "end_turn" });
  }

  private askPermission(request: PermissionRequest): void {
    const link = this.link;
    if (link === undefined) return;
    const controller = new AbortController();
    this.asking.set(request.request_id, controller);
    const params: acp.RequestPermissionRequest = {
      sessionId: this.sessionId,
      toolCall: this.mapper.permissionToolCall(request),
      options: permissionOptions(request),
    };
    this.options.client
      .request("session/request_permission", params, {
        cancellationSignal: controller.signal,
        stopWaitingOnCancel: true,
      })
      .then(
        (answer) => answer.outcome,
        (): acp.RequestPermissionOutcome => ({ outcome: "cancelled" }),
      )
      .then((outcome) => {
        // Dismissed because someone else answered or the turn was cancelled: nothing to send.
        if (controller.signal.aborted) return;
        this.asking.delete(request.request_id);
        void link.request({
          type: "permission_response",
          request_id: request.request_id,
          ...permissionAnswer(request, outcome),
        });
      });
  }

  /**
   * ACP v1 has no question dialog a client must support, so the `ask` tool gets no answer from
   * the editor: direct mode answers "no answer" at once; daemon mode leaves it to the web.
   */
  private answerUi(request: UiRequest): void {
    if (!this.options.answersUi || this.link === undefined) return;
    void this.link.request({ type: "ui_response", request_id: request.request_id, value: null });
  }

  /**
   * The runtime's `read` tool asks for a file the gate allowed, inside the cwd: the editor's
   * text for it (an unsaved buffer) goes back; its error, or text over the bound, lets the
   * runtime read the disk. The runtime does not wait past its own timeout.
   */
  private serveRead(request: ClientReadRequestEvent): void {
    const link = this.link;
    if (!this.options.servesReads || link === undefined) return;
    this.options.client
      .request("fs/read_text_file", { sessionId: this.sessionId, path: request.path })
      .then(
        ({ content }) =>
          content.length <= MAX_CLIENT_READ_CHARS
            ? { content }
            : { error: `the editor's text is over ${MAX_CLIENT_READ_CHARS} characters` },
        (err: unknown) => ({ error: err instanceof Error ? err.message : String(err) }),
      )
      .then((answer) => {
        void link.request({ type: "client_read_response", request_id: request.request_id, ...answer });
      });
  }

  private async notify(update: acp.SessionUpdate): Promise<void> {
    try {
      await this.options.client.notify("session/update", { sessionId: this.sessionId, update });
    } catch {
      // The editor is gone; the connection's close ends the session.
    }
  }
}
