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
import type {
  PermissionRequest,
  PermissionResolved,
  UiRequest,
  UiResolved,
} from "../../types/permissions.ts";
import type { PendingRequests } from "./pending-requests.ts";

export type HeadlessPolicy = "deny" | "allow_if_rule_matches" | "queue";

type UiValue = string | string[] | null;

export interface ClientRequestsDeps {
  pending: PendingRequests;
  emit: (event: UnsequencedAgentEvent) => void;
  hasInteractiveResponder: () => boolean;
  policy: HeadlessPolicy;
  /** How long a `queue` request waits for a responder before it is denied. */
  headlessTimeoutMs: number;
}

export class ClientRequests {
  constructor(private readonly deps: ClientRequestsDeps) {}

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
    const timer = this.queueTimeout(event.request_id);
    try {
      const value = await answer;
      this.deps.emit(resolved(value));
      return value;
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  /** With nobody to ask, `deny` and `allow_if_rule_matches` refuse at once (grants already ran). */
  private headlessRefusal(): string | undefined {
    if (this.deps.hasInteractiveResponder() || this.deps.policy === "queue") return undefined;
    return `no interactive client is attached (headless policy: ${this.deps.policy})`;
  }

  private queueTimeout(requestId: string): ReturnType<typeof setTimeout> | undefined {
    if (this.deps.hasInteractiveResponder() || this.deps.policy !== "queue") return undefined;
    const ms = this.deps.headlessTimeoutMs;
    return setTimeout(() => {
      this.deps.emit({
        type: "error",
        code: "TIMEOUT",
        message: `request ${requestId} timed out after ${ms} ms`,
        fatal: false,
      });
      this.deps.pending.cancel(requestId, "headless timeout");
    }, ms);
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
