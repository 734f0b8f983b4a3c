/**
 * Asking the user: a permission or UI request is emitted, waits in PendingRequests until its
 * client answers or the turn is aborted, and closes with a `*_resolved` event (docs/protocol.md
 * §5.3). The runtime sees one client; which client may answer, and what happens while nobody
 * can (headless policy, its timeout), is the daemon broker's concern (docs/daemon.md).
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

type UiValue = string | string[] | null;

export class ClientRequests {
  constructor(
    private readonly pending: PendingRequests,
    private readonly emit: (event: UnsequencedAgentEvent) => void,
  ) {}

  async permission(ask: PermissionAsk, signal: AbortSignal): Promise<PermissionAnswer> {
    if (signal.aborted) return { kind: "cancelled", reason: "aborted" };
    const event: PermissionRequest = { type: "permission_request", request_id: newId("req"), ...ask };
    return this.open(event, this.pending.waitPermission(event), (answer) =>
      permissionResolved(event.request_id, answer),
    );
  }

  async ui(ask: UiAsk): Promise<UiValue> {
    const event: UiRequest = { type: "ui_request", request_id: newId("req"), ...ask };
    return this.open(
      event,
      this.pending.waitUi(event),
      (value): UiResolved => ({
        type: "ui_resolved",
        request_id: event.request_id,
        value,
      }),
    );
  }

  /** Closes every open request without an answer (abort, end of turn). */
  cancelAll(reason: string): void {
    for (const id of this.pending.ids()) this.pending.cancel(id, reason);
  }

  /** The request is registered before it is emitted, so a `sync` can never miss it. */
  private async open<T>(
    event: PermissionRequest | UiRequest,
    answer: Promise<T>,
    resolved: (value: T) => PermissionResolved | UiResolved,
  ): Promise<T> {
    this.emit(event);
    const value = await answer;
    this.emit(resolved(value));
    return value;
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
