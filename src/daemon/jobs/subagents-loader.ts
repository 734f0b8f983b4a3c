/**
 * The broker's handle on the subagent jobs: the module loads on the first `subagent.*`
 * command (an idle daemon never pays for it), and until then there are no leases or runs to
 * tell about.
 */
import type { DaemonClient } from "../broker/daemon-client.ts";
import type { SubagentService, SubagentServiceDeps } from "./subagent-service.ts";

export class SubagentsLoader {
  /** Set once loaded: the broker's synchronous hooks (events, lease guard) use it. */
  service: SubagentService | undefined;
  private loading: Promise<SubagentService> | undefined;

  constructor(private readonly deps: () => SubagentServiceDeps) {}

  static handles(type: unknown): boolean {
    return typeof type === "string" && type.startsWith("subagent.");
  }

  load(): Promise<SubagentService> {
    this.loading ??= import("./subagent-service.ts").then(({ SubagentService }) => {
      this.service = new SubagentService(this.deps());
      return this.service;
    });
    return this.loading;
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
