/**
 * The state a client (or a daemon projecting this agent) must see, in one place:
 * status, active mode, pending requests. Status is derived, never set ad hoc: a turn in
 * flight is `streaming` unless a permission/UI request is open; compaction and fatal
 * errors override. Every change emits one `status` event.
 */
import type { AgentStatus } from "../types/agent-state.ts";
import { PendingRequests } from "./requests/pending-requests.ts";

export class AgentState {
  readonly pending: PendingRequests;
  private turnActive = false;
  private compacting = false;
  private fatal: string | undefined;
  private current: AgentStatus = "idle";

  constructor(private readonly onStatus: (status: AgentStatus, detail?: string) => void) {
    this.pending = new PendingRequests(() => this.refresh());
  }

  get status(): AgentStatus {
    return this.current;
  }

  get busy(): boolean {
    return this.turnActive || this.compacting;
  }

  setTurnActive(active: boolean): void {
    this.turnActive = active;
    this.refresh();
  }

  setCompacting(active: boolean): void {
    this.compacting = active;
    this.refresh();
  }

  setFatal(detail: string | undefined): void {
    this.fatal = detail;
    this.refresh();
  }

  private derive(): AgentStatus {
    if (this.fatal !== undefined) return "error";
    if (this.compacting) return "compacting";
    if (this.pending.hasKind("permission")) return "waiting_for_permission";
    if (this.pending.hasKind("ui")) return "waiting_for_ui";
    if (this.turnActive) return "streaming";
    return "idle";
  }

  private refresh(): void {
    const next = this.derive();
    if (next === this.current) return;
    this.current = next;
    this.onStatus(next, next === "error" ? this.fatal : undefined);
  }
}
