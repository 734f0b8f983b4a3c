/**
 * Broadcast permission and UI requests of one agent (docs/protocol.md §5.3,
 * docs/architecture.md §5.4): the first valid response wins and later ones are dropped; with no
 * interactive responder the headless policy answers. A request asked while nobody could answer
 * (`queue`), or left open when the last responder went away, is denied when the headless timeout
 * fires — unless a responder attaches first, which cancels the timer.
 */
import type { PendingRequest } from "../../snapshot/agent-snapshot.ts";
import type { HeadlessPolicy } from "../../types/orchestrator.ts";

export interface ArbiterDeps {
  policy: () => HeadlessPolicy;
  timeoutMs: number;
  /** Closes a request in the runtime on the daemon's behalf: deny, or a `null` UI value. */
  answerHeadless(request: PendingRequest, reason: string): void;
  /** The headless timeout fired for this request (the broker reports TIMEOUT to the clients). */
  timedOut(request: PendingRequest): void;
}

export class RequestArbiter {
  private readonly claimed = new Set<string>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly deps: ArbiterDeps) {}

  /** A request was just broadcast. */
  asked(request: PendingRequest, hasResponder: boolean): void {
    if (hasResponder) return;
    const policy = this.deps.policy();
    if (policy === "queue") {
      this.startTimer(request);
      return;
    }
    // `allow_if_rule_matches`: the runtime's gate already applied every grant before asking.
    this.claim(request.request_id);
    this.deps.answerHeadless(request, noResponderReason(request, policy));
  }

  /** First valid response wins: false when this request was already answered. */
  claim(requestId: string): boolean {
    if (this.claimed.has(requestId)) return false;
    this.claimed.add(requestId);
    this.stopTimer(requestId);
    return true;
  }

  isClaimed(requestId: string): boolean {
    return this.claimed.has(requestId);
  }

  resolved(requestId: string): void {
    this.claimed.delete(requestId);
    this.stopTimer(requestId);
  }

  /** A client that answers this request attached: it no longer waits for the headless timeout. */
  responderArrived(requestId: string): void {
    this.stopTimer(requestId);
  }

  /** The last interactive client left: what is still open waits at most the headless timeout. */
  responderLeft(open: readonly PendingRequest[]): void {
    for (const request of open) if (!this.claimed.has(request.request_id)) this.startTimer(request);
  }

  /** The generation ended: its requests died with it. */
  reset(): void {
    for (const id of [...this.timers.keys()]) this.stopTimer(id);
    this.claimed.clear();
  }

  private startTimer(request: PendingRequest): void {
    if (this.timers.has(request.request_id)) return;
    const timer = setTimeout(() => {
      this.timers.delete(request.request_id);
      if (!this.claim(request.request_id)) return;
      this.deps.timedOut(request);
      this.deps.answerHeadless(request, `headless timeout: nobody answered within ${this.deps.timeoutMs} ms`);
    }, this.deps.timeoutMs);
    this.timers.set(request.request_id, timer);
  }

  private stopTimer(requestId: string): void {
    const timer = this.timers.get(requestId);
    if (timer) clearTimeout(timer);
    this.timers.delete(requestId);
  }
}

/** Says nobody answers this kind of request, and how to become the one who does. */
export function noResponderReason(request: PendingRequest, policy: HeadlessPolicy): string {
  const handler = request.type === "permission_request" ? "agent.onPermission" : "agent.onUi";
  return (
    `no one answered: no attached client answers ${request.type === "permission_request" ? "permission" : "UI"} requests ` +
    `(headless policy: ${policy}); register a handler (SDK: ${handler}) or attach an interactive client`
  );
}
