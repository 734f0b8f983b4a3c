/**
 * Strict active steer (docs/protocol.md §10.4 `subagent.steer`): a message for the turn a run is
 * playing now. It is `injected` once the child delivers it into that turn, `conflict` if the
 * turn or the run ends first — and then it is dropped from the child's queue (an abort of an
 * idle runtime clears it), so it never becomes a future prompt or part of a relaunch.
 */
import { newId } from "../../support/ids.ts";
import type { AgentEvent } from "../../types/catalog.ts";
import type { SubagentSteerResult } from "../../types/subagent.ts";

interface PendingSteer {
  text: string;
  runId: string;
  turnId: string;
  correlationId: string;
  settle(result: SubagentSteerResult): void;
}

export class StrictSteers {
  private readonly pending = new Map<string, PendingSteer[]>();

  constructor(private readonly dropQueued: (agentId: string) => void) {}

  /** Holds a steer for the active turn `turnId`; `outcome` settles once it is injected or conflicts. */
  track(
    agentId: string,
    runId: string,
    turnId: string,
    text: string,
  ): { correlationId: string; outcome: Promise<SubagentSteerResult> } {
    const correlationId = newId("steer");
    const outcome = new Promise<SubagentSteerResult>((settle) => {
      const list = this.pending.get(agentId) ?? [];
      list.push({ text, runId, turnId, correlationId, settle });
      this.pending.set(agentId, list);
    });
    return { correlationId, outcome };
  }

  /** A steer the runtime would not queue (its turn had just ended): conflict now. */
  refused(agentId: string, correlationId: string): void {
    const list = this.pending.get(agentId) ?? [];
    const at = list.findIndex((p) => p.correlationId === correlationId);
    const [steer] = at >= 0 ? list.splice(at, 1) : [];
    if (steer) steer.settle(result(steer, "conflict"));
  }

  event(agentId: string, event: AgentEvent): void {
    const list = this.pending.get(agentId);
    if (!list) return;
    if (event.type === "message_complete" && event.message.role === "user") {
      const text = event.message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
      const at = list.findIndex((p) => p.text === text);
      const [steer] = at >= 0 ? list.splice(at, 1) : [];
      if (steer) steer.settle({ ...result(steer, "injected"), turn_id: steer.turnId });
    } else if (event.type === "turn_end") {
      this.ended(agentId);
    }
  }

  /** The turn or the run ended: whatever was not delivered is a conflict and is dropped. */
  ended(agentId: string): void {
    const list = this.pending.get(agentId);
    if (!list) return;
    this.pending.delete(agentId);
    for (const steer of list) steer.settle(result(steer, "conflict"));
    if (list.length > 0) this.dropQueued(agentId);
  }
}

function result(steer: PendingSteer, status: "injected" | "conflict"): SubagentSteerResult {
  return { status, run_id: steer.runId, correlation_id: steer.correlationId };
}
