/**
 * Answers permission and UI requests from code (docs/protocol.md §5.3). Each open request is
 * handed to the registered handler once, with an AbortSignal that fires when the request is
 * resolved elsewhere (another client won, or the headless path answered) before the handler
 * did; a late answer is then never sent. Requests re-shown by a `sync` are not asked twice.
 */
import type { PendingRequest } from "../../src/snapshot/agent-snapshot.ts";
import type { RequestKind } from "../../src/types/orchestrator.ts";
import type {
  PermissionDecision,
  PermissionRequest,
  PermissionResolved,
  UiRequest,
  UiResolved,
} from "../../src/types/permissions.ts";
import type { AgentLink } from "./agent-link.ts";
import type { CompiledPolicy } from "./permission-policy.ts";

export type PermissionAnswer =
  | PermissionDecision
  | { decision: PermissionDecision; reason?: string }
  | { choice_id: string; reason?: string };

export type UiAnswer = string | string[] | null;

export interface RequestContext {
  /** The agent asking (undefined on a direct connection, which has one agent). */
  agentId: string | undefined;
  /** Aborted when the request was resolved elsewhere first; `signal.reason` is a `ResolvedElsewhere`. */
  signal: AbortSignal;
}

export type PermissionHandler = (
  request: PermissionRequest,
  context: RequestContext,
) => PermissionAnswer | Promise<PermissionAnswer>;

export type UiHandler = (request: UiRequest, context: RequestContext) => UiAnswer | Promise<UiAnswer>;

/** The reason of a handler's signal: who answered instead, as the `*_resolved` event says. */
export class ResolvedElsewhere extends Error {
  override readonly name = "ResolvedElsewhere";

  constructor(readonly resolved: PermissionResolved | UiResolved | undefined) {
    super(
      resolved
        ? `request ${resolved.request_id} was answered elsewhere${resolved.type === "permission_resolved" && resolved.source ? ` (by ${resolved.source})` : ""}`
        : "the request is no longer open",
    );
  }
}

const NO_HANDLER = "no handler in the SDK client answers this: register agent.onPermission / agent.onUi";

export class RequestResponder {
  private permission: PermissionHandler | undefined;
  private ui: UiHandler | undefined;
  /** Requests handed to a handler and not yet answered, by request id. */
  private readonly open = new Map<string, AbortController>();
  /** Requests this client already answered or handed out (bounded: pruned when resolved). */
  private readonly seen = new Set<string>();

  constructor(
    private readonly link: AgentLink,
    /** Decides first (deny wins); what it leaves open goes to the handler, or is refused. */
    private readonly policy?: CompiledPolicy,
  ) {}

  onPermission(handler: PermissionHandler): () => void {
    this.permission = handler;
    return () => {
      if (this.permission === handler) this.permission = undefined;
    };
  }

  onUi(handler: UiHandler): () => void {
    this.ui = handler;
    return () => {
      if (this.ui === handler) this.ui = undefined;
    };
  }

  /** The request kinds this client answers: those with a handler (every kind when it denies the rest). */
  kinds(): RequestKind[] {
    if (!this.link.answers) return [];
    if (this.link.unhandled === "deny") return ["permission", "ui"];
    const kinds: RequestKind[] = [];
    // A policy answers every permission request (a rule, the handler, or its own denial).
    if (this.permission || this.policy) kinds.push("permission");
    if (this.ui) kinds.push("ui");
    return kinds;
  }

  asked(request: PendingRequest): void {
    if (!this.link.answers || this.seen.has(request.request_id)) return;
    if (request.type === "permission_request") {
      const decided = this.policy?.decide(request);
      if (decided) {
        this.answerPermission(request, decided);
        return;
      }
      const handler = this.permission;
      // A script that set a policy wants no open question, even where others could answer.
      if (!handler && this.policy) this.answerPermission(request, this.policy.uncovered(request));
      else if (handler)
        this.dispatch(
          request,
          (ctx) => handler(request, ctx),
          (a) => this.answerPermission(request, a),
        );
      else if (this.link.unhandled === "deny")
        this.answerPermission(request, { decision: "deny", reason: NO_HANDLER });
      return;
    }
    const handler = this.ui;
    if (handler)
      this.dispatch(
        request,
        (ctx) => handler(request, ctx),
        (a) => this.answerUi(request, a),
      );
    else if (this.link.unhandled === "deny") this.answerUi(request, null);
  }

  resolved(event: PermissionResolved | UiResolved): void {
    this.seen.delete(event.request_id);
    const controller = this.open.get(event.request_id);
    if (!controller) return;
    this.open.delete(event.request_id);
    controller.abort(new ResolvedElsewhere(event));
  }

  /** A `sync` lists what is open now: new ones are asked, vanished ones are closed. */
  synced(pending: readonly PendingRequest[]): void {
    const ids = new Set(pending.map((r) => r.request_id));
    for (const [id, controller] of this.open) {
      if (ids.has(id)) continue;
      this.open.delete(id);
      controller.abort(new ResolvedElsewhere(undefined));
    }
    for (const id of this.seen) if (!ids.has(id)) this.seen.delete(id);
    for (const request of pending) this.asked(request);
  }

  /** The agent is gone: every handler still deciding is told. */
  closeAll(): void {
    for (const controller of this.open.values()) controller.abort(new ResolvedElsewhere(undefined));
    this.open.clear();
  }

  private dispatch<A>(
    request: PendingRequest,
    ask: (ctx: RequestContext) => A | Promise<A>,
    answer: (a: A) => void,
  ): void {
    const controller = new AbortController();
    this.seen.add(request.request_id);
    this.open.set(request.request_id, controller);
    const context: RequestContext = { agentId: this.link.agentId, signal: controller.signal };
    void (async () => {
      let result: A;
      try {
        result = await ask(context);
      } catch (err) {
        if (controller.signal.aborted) return;
        this.open.delete(request.request_id);
        // A handler that throws refuses: a failure never turns into an approval.
        if (request.type === "permission_request")
          this.answerPermission(request, {
            decision: "deny",
            reason: `permission handler failed: ${err instanceof Error ? err.message : String(err)}`,
          });
        else this.answerUi(request, null);
        return;
      }
      if (controller.signal.aborted) return;
      this.open.delete(request.request_id);
      answer(result);
    })();
  }

  private answerPermission(request: PermissionRequest, answer: PermissionAnswer): void {
    this.seen.add(request.request_id);
    const form = typeof answer === "string" ? { decision: answer } : answer;
    this.link.send({ type: "permission_response", request_id: request.request_id, ...form });
  }

  private answerUi(request: UiRequest, value: UiAnswer): void {
    this.seen.add(request.request_id);
    this.link.send({ type: "ui_response", request_id: request.request_id, value });
  }
}
