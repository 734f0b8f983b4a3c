/** Several subsystems' AgentHooks as the one the broker holds, each told in the order given. */

import type { AgentEvent } from "../../types/catalog.ts";
import type { AgentCommand } from "../../types/command-table.ts";
import type { AgentHooks } from "./broker.ts";
import type { CommandReply } from "./broker-context.ts";

export class HooksList implements AgentHooks {
  constructor(private readonly hooks: readonly AgentHooks[]) {}

  async beforeAgentCommand(command: AgentCommand, reply: CommandReply): Promise<boolean> {
    for (const hook of this.hooks) if (await hook.beforeAgentCommand(command, reply)) return true;
    return false;
  }

  agentEvent(agentId: string, event: AgentEvent): void {
    for (const hook of this.hooks) hook.agentEvent(agentId, event);
  }

  runtimeReady(agentId: string): void {
    for (const hook of this.hooks) hook.runtimeReady(agentId);
  }

  agentDelta(agentId: string): void {
    for (const hook of this.hooks) hook.agentDelta(agentId);
  }

  runtimeEnded(agentId: string, reason: string): void {
    for (const hook of this.hooks) hook.runtimeEnded(agentId, reason);
  }

  clientClosed(clientId: string): void {
    for (const hook of this.hooks) hook.clientClosed(clientId);
  }
}
