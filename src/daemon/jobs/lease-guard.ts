/**
 * The lease guard (docs/protocol.md §10.4): while a run holds a child, the child's own clients
 * cannot drive it around the coordinator.
 * - A direct `prompt` is `CONFLICT`: one run at a time.
 * - A direct steer (`steer`, or `prompt` with `streaming_behavior: "steer"`) takes the strict
 *   active-turn path of `subagent.steer`: it reaches the run's running turn or nothing. It is
 *   answered once the child queued it; one the turn never took is dropped, and the child's
 *   clients hear so as a non-fatal `CONFLICT` error event.
 * - A direct `abort` cancels the run (recorded as `cancelled`) and goes on to the runtime.
 * - Permission/UI answers and every other command pass.
 */
import type { PromptCommand, SteerCommand } from "../../types/agent-commands.ts";
import type { AgentCommand } from "../../types/command-table.ts";
import type { CommandReply } from "../broker/broker-context.ts";
import type { RunRef } from "./job-catalog.ts";
import { steerRun } from "./steer-run.ts";
import type { SubagentService } from "./subagent-service.ts";

/**
 * A per-agent command of an attached client, before it goes to the runtime: an aborted
 * parent's waits end, and a leased child's lease is guarded. Whether it was answered here.
 */
export function beforeAgentCommand(
  service: SubagentService,
  command: AgentCommand,
  reply: CommandReply,
): Promise<boolean> {
  const agentId = command.agent_id;
  if (agentId === undefined) return Promise.resolve(false);
  if (command.type === "abort") {
    service.waiters.parentAborted(agentId, {
      code: "CONFLICT",
      message: `subagent.wait: agent ${agentId} was aborted, which ends its waits; the runs go on (subagent.status shows them)`,
    });
  }
  const lease = service.coordinator.leased(agentId);
  return lease ? guardLeasedChild(service, lease, command, reply) : Promise.resolve(false);
}

/** Whether the guard answered the command itself; otherwise it goes on to the runtime. */
async function guardLeasedChild(
  service: SubagentService,
  lease: RunRef,
  command: AgentCommand,
  reply: CommandReply,
): Promise<boolean> {
  switch (command.type) {
    case "abort":
      service.coordinator.finish(lease, "cancelled", "aborted by a client of the child");
      return false;
    case "steer":
      await directSteer(service, lease, command, reply);
      return true;
    case "prompt":
      if (command.streaming_behavior === "steer") {
        await directSteer(service, lease, command, reply);
        return true;
      }
      reply.fail({
        code: "CONFLICT",
        message: `prompt: agent ${lease.run.agent_id} is running subagent run ${lease.run.run_id} for its parent; wait for the run to end (subagent.wait) or stop it (subagent.stop)`,
      });
      return true;
    default:
      return false;
  }
}

async function directSteer(
  service: SubagentService,
  lease: RunRef,
  command: SteerCommand | PromptCommand,
  reply: CommandReply,
): Promise<void> {
  const { run } = lease;
  const input = {
    message: command.message,
    ...(command.images !== undefined ? { images: command.images } : {}),
  };
  const started = await steerRun(service, run, input, command.type);
  if (!started.ok) return reply.fail(started.error);
  if (!started.queued) {
    return reply.fail({
      code: "CONFLICT",
      message: `${command.type}: the turn of subagent run ${run.run_id} ended before the steer reached agent ${run.agent_id}; nothing was queued`,
    });
  }
  reply.ok({ queued: "steer", run_id: run.run_id, correlation_id: started.correlationId });
  const result = await started.outcome;
  service.deps.log(`run ${run.run_id}: a client's steer ${started.correlationId} was ${result.status}`);
  if (result.status === "conflict") {
    service.announceToChild(run.agent_id, {
      code: "CONFLICT",
      message: `steer ${started.correlationId} was not delivered: the turn of subagent run ${run.run_id} ended first, and the message was dropped (it never becomes a later prompt)`,
    });
  }
}
