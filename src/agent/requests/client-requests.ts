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
  /** Questions outside any turn (`set_sandbox`): a turn's end or abort leaves them open. */
  private readonly standing = new Set<string>();

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

  /**
   * A permission question that belongs to no turn: open once this returns (its id is known at
   * once), answered like any other, closed only by its answer or `cancel`.
   */
  standingPermission(ask: PermissionAsk): { requestId: string; answer: Promise<PermissionAnswer> } {
    const event: PermissionRequest = { type: "permission_request", request_id: newId("req"), ...ask };
    this.standing.add(event.request_id);
    const answer = this.open(event, this.pending.waitPermission(event), (value) =>
      permissionResolved(event.request_id, value),
    ).finally(() => this.standing.delete(event.request_id));
    return { requestId: event.request_id, answer };
  }

  /** Closes one open request without an answer (a standing question that was superseded). */
  cancel(requestId: string, reason: string): void {
    this.pending.cancel(requestId, reason);
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

  /** Closes every open request of the turn without an answer (abort, end of turn); `everything` also the standing ones. */
  cancelAll(reason: string, everything = false): void {
    for (const id of this.pending.ids())
      if (everything || !this.standing.has(id)) this.pending.cancel(id, reason);
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
