/**
 * The subagent jobs as the daemon registers them with the broker: their command handlers and
 * their hooks. The module loads on the first `subagent.*` command (an idle daemon never pays
 * for it), or at start when the records left work to recover (`recover`); until then there
 * are no leases or runs to tell about.
 */
import type { AgentEvent } from "../../types/catalog.ts";
import type { AgentCommand, CommandMap, CommandTypeOwnedBy } from "../../types/command-table.ts";
import type { AgentHooks } from "../broker/broker.ts";
import type { CommandReply } from "../broker/broker-context.ts";
import type { ClientConnection } from "../broker/client-connection.ts";
import type { HandlersOf } from "../broker/command-handlers.ts";
import { jobsNeedRecovery } from "./open-jobs.ts";
import type { SubagentService, SubagentServiceDeps } from "./subagent-service.ts";

type BeforeAgentCommand = typeof import("./lease-guard.ts").beforeAgentCommand;

export class SubagentsLoader implements AgentHooks {
  /** Set once loaded: the broker's synchronous hooks (events, lease guard) use it. */
  service: SubagentService | undefined;
  private guard: BeforeAgentCommand | undefined;
  private loading: Promise<SubagentService> | undefined;

  constructor(private readonly deps: () => SubagentServiceDeps) {}

  /**
   * At start, before any command: when the records left open runs or undelivered reports, the
   * jobs load now, so the runs are interrupted and reported and every lease holds from the
   * first command on, whether or not a client ever sends a `subagent.*` command.
   */
  async recover(): Promise<void> {
    if (jobsNeedRecovery(this.deps().registry.home)) await this.load();
  }

  load(): Promise<SubagentService> {
    this.loading ??= Promise.all([import("./subagent-service.ts"), import("./lease-guard.ts")]).then(
      ([{ SubagentService }, { beforeAgentCommand }]) => {
        this.guard = beforeAgentCommand;
        this.service = new SubagentService(this.deps());
        return this.service;
      },
    );
    return this.loading;
  }

  /** The jobs' say on a per-agent command (lease guard, parent abort): whether they answered it. */
  beforeAgentCommand(command: AgentCommand, reply: CommandReply): Promise<boolean> {
    if (!this.service || !this.guard) return Promise.resolve(false);
    return this.guard(this.service, command, reply);
  }

  agentEvent(agentId: string, event: AgentEvent): void {
    this.service?.childEvent(agentId, event);
  }

  runtimeReady(agentId: string): void {
    this.service?.parentReady(agentId);
  }

  agentDelta(agentId: string): void {
    this.service?.childDelta(agentId);
  }

  runtimeEnded(agentId: string, reason: string): void {
    this.service?.childEnded(agentId, reason);
  }

  clientClosed(clientId: string): void {
    this.service?.clientClosed(clientId);
  }

  /** The `subagent.*` handlers: the service and the command module load on the first one. */
  handlers(): HandlersOf<"subagents"> {
    const loaded = () =>
      Promise.all([this.load(), import("./subagent-commands.ts")]).then(([service, { subagentHandlers }]) =>
        subagentHandlers(service),
      );
    const via =
      <T extends CommandTypeOwnedBy<"subagents">>(type: T) =>
      async (client: ClientConnection, command: CommandMap[T]) => {
        const handlers: HandlersOf<"subagents"> = await loaded();
        return handlers[type](client, command);
      };
    return {
      "subagent.create": via("subagent.create"),
      "subagent.wait": via("subagent.wait"),
      "subagent.steer": via("subagent.steer"),
      "subagent.relaunch": via("subagent.relaunch"),
      "subagent.status": via("subagent.status"),
      "subagent.stop": via("subagent.stop"),
    };
  }
}
