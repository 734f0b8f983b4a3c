/**
 * Questions of agents this page is not attached to, routed here because it answers for one of
 * their ancestors (docs/architecture.md §5.4): a subagent's permission or UI request shows in its
 * parent's view. The daemon sends the matching `*_resolved` the same way; a reconnect clears
 * them all, and the daemon routes the open ones again when the page re-attaches. At most
 * MAX_DELEGATED are kept (the oldest go first), whatever a daemon sends.
 */
import { type Accessor, createSignal } from "solid-js";
import type { PendingRequest } from "../../../src/snapshot/agent-snapshot.ts";
import type { AgentEvent } from "../../../src/types/catalog.ts";

export interface DelegatedRequest {
  /** The agent that asks (a descendant of an agent this page is attached to). */
  agentId: string;
  request: PendingRequest;
}

const MAX_DELEGATED = 50;

export class DelegatedRequests {
  private readonly signal = createSignal<readonly DelegatedRequest[]>([]);

  get list(): Accessor<readonly DelegatedRequest[]> {
    return this.signal[0];
  }

  /** An event of an agent without a feed here: only its requests and their ends matter. */
  receive(agentId: string, event: AgentEvent): void {
    const [list, setList] = this.signal;
    switch (event.type) {
      case "permission_request":
      case "ui_request": {
        if (list().some((d) => d.request.request_id === event.request_id)) return;
        setList([...list(), { agentId, request: event }].slice(-MAX_DELEGATED));
        return;
      }
      case "permission_resolved":
      case "ui_resolved":
        this.resolved(event.request_id);
        return;
      default:
        return;
    }
  }

  resolved(requestId: string): void {
    const [list, setList] = this.signal;
    if (list().some((d) => d.request.request_id === requestId))
      setList(list().filter((d) => d.request.request_id !== requestId));
  }

  clear(): void {
    this.signal[1]([]);
  }
}
