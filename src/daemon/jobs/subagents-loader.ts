/**
 * The broker's handle on the subagent jobs: the module loads on the first `subagent.*`
 * command (an idle daemon never pays for it), and until then there are no leases or runs to
 * tell about.
 */
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
}
