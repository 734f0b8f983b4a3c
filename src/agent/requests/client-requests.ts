/**
 * Asking the user: permission and UI requests are broadcast to every client, wait in
 * PendingRequests until the first valid answer, and close with a `*_resolved` event
 * (PROTOCOL §6.3, §9.5). With no interactive client attached the headless policy decides
 * (ARCHITECTURE §6.2).
 */
import type { PermissionAnswer, PermissionAsk } from "../../contracts/permission-gate.ts";
import type { UiAsk } from "../../contracts/tool.ts";
import { newId } from "../../support/ids.ts";
import type { UnsequencedAgentEvent } from "../../types/catalog.ts";
import type { HeadlessPolicy } from "../../types/orchestrator.ts";
import type {
  PermissionRequest,
  PermissionResolved,
  UiRequest,
  UiResolved,
} from "../../types/permissions.ts";
import type { PendingRequests } from "./pending-requests.ts";

type UiValue = string | string[] | null;

export interface ClientRequestsDeps {
  pending: PendingRequests;
  emit: (event: UnsequencedAgentEvent) => void;
  hasInteractiveResponder: () => boolean;
  policy: HeadlessPolicy;
  /** How long a `queue` request waits for a responder before it is denied. */
  headlessTimeoutMs: number;
  /** Runs `fire` after `ms` and returns its cancel function (default: a real timer). */
  schedule?: (fire: () => void, ms: number) => () => void;
}

const realTimer = (fire: () => void, ms: number): (() => void) => {
  const timer = setTimeout(fire, ms);
  return () => clearTimeout(timer);
};

export class ClientRequests {
  /** `queue` policy: the headless timeout of each open request while nobody can answer it. */
  private readonly headlessTimers = new Map<string, () => void>();

  constructor(private readonly deps: ClientRequestsDeps) {}

  /**
   * A client attached or left. With an interactive responder, queued requests wait for its
   * answer and no headless timeout runs; once the last one leaves, the timeouts start again.
   */
  respondersChanged(): void {
    if (this.deps.hasInteractiveResponder()) {
      for (const cancel of this.headlessTimers.values()) cancel();
      this.headlessTimers.clear();
      return;
    }
    for (const id of this.deps.pending.ids()) this.startHeadlessTimeout(id);
  }

  async permission(ask: PermissionAsk, signal: AbortSignal): Promise<PermissionAnswer> {
    if (signal.aborted) return { kind: "cancelled", reason: "aborted" };
    const refusal = this.headlessRefusal();
    if (refusal) return { kind: "cancelled", reason: refusal };
    const event: PermissionRequest = { type: "permission_request", request_id: newId("req"), ...ask };
    return this.open(event, this.deps.pending.waitPermission(event), (answer) =>
      permissionResolved(event.request_id, answer),
    );
  }

  async ui(ask: UiAsk): Promise<UiValue> {
    if (this.headlessRefusal()) return null;
    const event: UiRequest = { type: "ui_request", request_id: newId("req"), ...ask };
    return this.open(
      event,
      this.deps.pending.waitUi(event),
      (value): UiResolved => ({
        type: "ui_resolved",
        request_id: event.request_id,
        value,
      }),
    );
  }

  /** Closes every open request without an answer (abort, end of turn). */
  cancelAll(reason: string): void {
    for (const id of this.deps.pending.ids()) this.deps.pending.cancel(id, reason);
  }

  /** The request is registered before it is broadcast, so a `sync` can never miss it. */
  private async open<T>(
    event: PermissionRequest | UiRequest,
    answer: Promise<T>,
    resolved: (value: T) => PermissionResolved | UiResolved,
  ): Promise<T> {
    this.deps.emit(event);
    if (!this.deps.hasInteractiveResponder()) this.startHeadlessTimeout(event.request_id);
    try {
      const value = await answer;
      this.deps.emit(resolved(value));
      return value;
    } finally {
      this.headlessTimers.get(event.request_id)?.();
      this.headlessTimers.delete(event.request_id);
    }
  }

  /** With nobody to ask, `deny` and `allow_if_rule_matches` refuse at once (grants already ran). */
  private headlessRefusal(): string | undefined {
    if (this.deps.hasInteractiveResponder() || this.deps.policy === "queue") return undefined;
    return `no interactive client is attached (headless policy: ${this.deps.policy})`;
  }

  private startHeadlessTimeout(requestId: string): void {
    if (this.deps.policy !== "queue" || this.headlessTimers.has(requestId)) return;
    const ms = this.deps.headlessTimeoutMs;
    const schedule = this.deps.schedule ?? realTimer;
    const cancel = schedule(() => {
      this.headlessTimers.delete(requestId);
      this.deps.emit({
        type: "error",
        code: "TIMEOUT",
        message: `request ${requestId} timed out after ${ms} ms with no interactive client to answer it`,
        fatal: false,
      });
      this.deps.pending.cancel(requestId, "headless timeout");
    }, ms);
    this.headlessTimers.set(requestId, cancel);
  }
}

function permissionResolved(requestId: string, answer: PermissionAnswer): PermissionResolved {
  const base = { type: "permission_resolved" as const, request_id: requestId };
  switch (answer.kind) {
    case "choice":
      return { ...base, choice_id: answer.choice_id, ...(answer.source ? { source: answer.source } : {}) };
    case "decision":
      return { ...base, decision: answer.decision, ...(answer.source ? { source: answer.source } : {}) };
    case "cancelled":
      return { ...base, decision: "deny", source: answer.reason };
  }
}
