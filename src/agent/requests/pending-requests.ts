/**
 * Open permission and UI requests. They live here — not inside the code that asked — so a
 * `sync` can show them to a client that attaches, and an answer to a request that is no
 * longer open (already answered, aborted) is discarded silently.
 */
import type { PermissionAnswer } from "../../contracts/permission-gate.ts";
import type { PermissionRequest, UiRequest } from "../../types/permissions.ts";

type UiValue = string | string[] | null;

interface PendingPermission {
  kind: "permission";
  event: PermissionRequest;
  validChoiceIds: Set<string>;
  resolve: (answer: PermissionAnswer) => void;
}

interface PendingUi {
  kind: "ui";
  event: UiRequest;
  resolve: (value: UiValue) => void;
}

type Pending = PendingPermission | PendingUi;

export type PermissionReply =
  | { request_id: string; choice_id: string; source?: string; reason?: string }
  | { request_id: string; decision: "allow" | "allow_always" | "deny"; source?: string; reason?: string };

/** What became of a permission answer: it won, the request was not open, or it named no offered choice. */
export type PermissionOutcome =
  | { kind: "answered"; answer: PermissionAnswer }
  | { kind: "not_open" }
  | { kind: "unknown_choice"; offered: string[] };

export class PendingRequests {
  private readonly open = new Map<string, Pending>();

  constructor(private readonly onChange: () => void) {}

  list(): (PermissionRequest | UiRequest)[] {
    return [...this.open.values()].map((p) => p.event);
  }

  hasKind(kind: "permission" | "ui"): boolean {
    for (const p of this.open.values()) if (p.kind === kind) return true;
    return false;
  }

  waitPermission(event: PermissionRequest): Promise<PermissionAnswer> {
    return new Promise((resolve) => {
      const validChoiceIds = new Set((event.choices ?? []).map((c) => c.id));
      this.open.set(event.request_id, { kind: "permission", event, validChoiceIds, resolve });
      this.onChange();
    });
  }

  waitUi(event: UiRequest): Promise<UiValue> {
    return new Promise((resolve) => {
      this.open.set(event.request_id, { kind: "ui", event, resolve });
      this.onChange();
    });
  }

  /**
   * Applies a permission response. Changes nothing when the request is not open, is not a
   * permission request, or names an unknown choice id — the request then stays open so
   * another response may win.
   */
  answerPermission(reply: PermissionReply): PermissionOutcome {
    const pending = this.open.get(reply.request_id);
    if (pending?.kind !== "permission") return { kind: "not_open" };
    let answer: PermissionAnswer;
    if ("choice_id" in reply) {
      if (!pending.validChoiceIds.has(reply.choice_id)) {
        return { kind: "unknown_choice", offered: [...pending.validChoiceIds] };
      }
      answer = { kind: "choice", choice_id: reply.choice_id, source: reply.source, reason: reply.reason };
    } else {
      answer = { kind: "decision", decision: reply.decision, source: reply.source, reason: reply.reason };
    }
    this.open.delete(reply.request_id);
    pending.resolve(answer);
    this.onChange();
    return { kind: "answered", answer };
  }

  answerUi(requestId: string, value: UiValue): boolean {
    const pending = this.open.get(requestId);
    if (pending?.kind !== "ui") return false;
    this.open.delete(requestId);
    pending.resolve(value);
    this.onChange();
    return true;
  }

  /** Closes one request without an answer (abort, timeout): permission → cancelled, UI → null. */
  cancel(requestId: string, reason: string): Pending | undefined {
    const pending = this.open.get(requestId);
    if (!pending) return undefined;
    this.open.delete(requestId);
    if (pending.kind === "permission") pending.resolve({ kind: "cancelled", reason });
    else pending.resolve(null);
    this.onChange();
    return pending;
  }

  ids(): string[] {
    return [...this.open.keys()];
  }
}
