/**
 * Several daemons at once — one per machine, each behind its own reverse proxy — seen as one
 * fleet: their agents listed together, each tagged with the daemon it lives on. A daemon that
 * does not answer is reported beside the list instead of failing it.
 */
import type { AgentInfo } from "../../src/types/agent-info.ts";
import type { Agent } from "./agent.ts";
import type { AttachOptions } from "./agent-options.ts";
import { type ConnectDaemonOptions, DaemonClient } from "./daemon-client.ts";
import { ShardError } from "./errors.ts";

export interface FleetAgentInfo extends AgentInfo {
  /** The name the daemon was added under. */
  daemon: string;
}

export interface FleetListing {
  agents: FleetAgentInfo[];
  unreachable: { daemon: string; error: ShardError }[];
}

export class ShardFleet {
  private readonly daemons = new Map<string, DaemonClient>();

  /** Connects to a daemon and keeps it under `name`. */
  async add(name: string, options: ConnectDaemonOptions): Promise<DaemonClient> {
    if (this.daemons.has(name))
      throw new ShardError("CONFLICT", `a daemon named "${name}" is already in the fleet`);
    const client = await DaemonClient.connect(options);
    this.daemons.set(name, client);
    return client;
  }

  daemon(name: string): DaemonClient {
    const client = this.daemons.get(name);
    if (!client) {
      throw new ShardError(
        "NOT_FOUND",
        `no daemon named "${name}"; the fleet has: ${[...this.daemons.keys()].join(", ") || "none"}`,
      );
    }
    return client;
  }

  get names(): string[] {
    return [...this.daemons.keys()];
  }

  /** Every daemon's agents, asked in parallel. */
  async listAgents(): Promise<FleetListing> {
    const listing: FleetListing = { agents: [], unreachable: [] };
    await Promise.all(
      [...this.daemons].map(async ([daemon, client]) => {
        try {
          for (const info of await client.listAgents()) listing.agents.push({ ...info, daemon });
        } catch (err) {
          const error = err instanceof ShardError ? err : new ShardError("INTERNAL_ERROR", String(err));
          listing.unreachable.push({ daemon, error });
        }
      }),
    );
    listing.agents.sort((a, b) => a.daemon.localeCompare(b.daemon) || a.created_at - b.created_at);
    return listing;
  }

  attach(daemon: string, agentId: string, options: AttachOptions = {}): Promise<Agent> {
    return this.daemon(daemon).attach(agentId, options);
  }

  close(): void {
    for (const client of this.daemons.values()) client.close();
    this.daemons.clear();
  }
}
