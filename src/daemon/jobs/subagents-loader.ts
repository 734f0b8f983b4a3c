/**
 * The broker's handle on the subagent jobs: the module loads on the first `subagent.*`
 * command (an idle daemon never pays for it), and until then there are no leases or runs to
 * tell about.
 */
import type { AgentCommand } from "../../types/catalog.ts";
import type { CommandReply } from "../broker/broker-context.ts";
import type { DaemonClient } from "../broker/daemon-client.ts";
import type { SubagentService, SubagentServiceDeps } from "./subagent-service.ts";

type BeforeAgentCommand = typeof import("./lease-guard.ts").beforeAgentCommand;

export class SubagentsLoader {
  /** Set once loaded: the broker's synchronous hooks (events, lease guard) use it. */
  service: SubagentService | undefined;
  private guard: BeforeAgentCommand | undefined;
  private loading: Promise<SubagentService> | undefined;

  constructor(private readonly deps: () => SubagentServiceDeps) {}

  static handles(type: unknown): boolean {
    return typeof type === "string" && type.startsWith("subagent.");
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

  /** Answers one `subagent.*` command (the service and the command handlers load together). */
  async handle(client: DaemonClient, message: unknown): Promise<void> {
    const [service, { handleSubagentCommand }] = await Promise.all([
      this.load(),
      import("./subagent-commands.ts"),
    ]);
    return handleSubagentCommand(service, client, message);
  }
}
