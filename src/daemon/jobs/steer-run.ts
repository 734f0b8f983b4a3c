/**
 * The strict active-turn path (docs/protocol.md §10.4) that `subagent.steer` and a client's direct
 * steer of a leased child share: the message goes to the run's running turn — named by its
 * `turn_id`, so a runtime whose turn just ended refuses it instead of starting a new turn — or
 * nowhere. `outcome` settles `injected` once the child delivers it, `conflict` if the turn or
 * the run ends first (and then the child's queue is cleared: see StrictSteers).
 */
import type { Image } from "../../types/messages.ts";
import type { SubagentSteerResult } from "../../types/subagent.ts";
import type { WireError } from "../../wire/errors.ts";
import type { RunRecord } from "./job-record.ts";
import type { SubagentService } from "./subagent-service.ts";

export type SteerStart =
  | { ok: true; queued: boolean; correlationId: string; outcome: Promise<SubagentSteerResult> }
  | { ok: false; error: WireError };

export async function steerRun(
  service: SubagentService,
  run: RunRecord,
  input: { message: string; images?: Image[] },
  /** Who asks, for the error text: the command's name. */
  who: string,
): Promise<SteerStart> {
  const turnId = service.coordinator.activeTurn(run);
  if (turnId === undefined) {
    return {
      ok: false,
      error: {
        code: "CONFLICT",
        message: `${who}: run ${run.run_id} of agent ${run.agent_id} is ${run.state}, not in an active turn; a steer only reaches a running turn (use subagent.relaunch for new work)`,
      },
    };
  }
  const { correlationId, outcome } = service.steers.track(run.agent_id, run.run_id, turnId, input.message);
  const answer = await service.coordinator.request(run.agent_id, {
    type: "steer",
    agent_id: run.agent_id,
    message: input.message,
    ...(input.images !== undefined ? { images: input.images } : {}),
    turn_id: turnId,
  });
  const queued = answer.ok && isQueuedSteer(answer.data);
  if (!queued) service.steers.refused(run.agent_id, correlationId);
  return { ok: true, queued, correlationId, outcome };
}

function isQueuedSteer(data: unknown): boolean {
  return typeof data === "object" && data !== null && "queued" in data && data.queued === "steer";
}
