/**
 * The MCP servers of one runtime, as a ToolSource: nothing starts with the agent, and the SDK is
 * not even loaded until then (start-up speed); each turn's start starts the servers not running
 * yet (in parallel, each bounded by the connect timeout), and the runtime's close() stops them all.
 * A project's servers join only once its file is trusted (project-trust.ts), decided before
 * anything starts.
 */

import type { AnyTool } from "../contracts/tool.ts";
import type { ToolSource, ToolSourceTurn } from "../contracts/tool-source.ts";
import type { McpServerStatus } from "../types/mcp-status.ts";
import type { McpServerConfig } from "./mcp-config.ts";
import type { McpConnection } from "./mcp-connection.ts";
import type { McpTimeouts } from "./mcp-timeouts.ts";
import type { TransportContext } from "./mcp-transport.ts";
import type { ProjectTrust } from "./project-trust.ts";

export interface McpServersOptions {
  /** The user's servers: always trusted. */
  servers: readonly McpServerConfig[];
  /** A project's `.mcp.json`, whose servers wait for the person's trust. */
  project?: ProjectTrust;
  context: TransportContext;
  timeouts: McpTimeouts;
  clientVersion: string;
  onError: (message: string) => void;
  /** The servers' states changed (one started, failed, crashed, or its tool count moved). */
  onStatus?: (servers: McpServerStatus[]) => void;
}

export class McpServers implements ToolSource {
  private connections: McpConnection[] = [];
  private loaded: Promise<typeof import("./mcp-connection.ts")> | undefined;
  private userStarted = false;
  private projectJoined = false;
  private closed = false;
  private reported = "";

  constructor(private readonly options: McpServersOptions) {}

  async prepare(turn: ToolSourceTurn): Promise<void> {
    if (this.closed) return;
    // The trust question comes first: nothing of the project's starts before a yes.
    const project = this.projectJoined ? [] : await this.projectServers(turn);
    const { McpConnection } = await this.load();
    if (this.closed) return;
    const { context, timeouts, clientVersion, onError } = this.options;
    const start = (server: McpServerConfig) =>
      new McpConnection({ server, context, timeouts, clientVersion, onError, onChange: () => this.report() });
    if (!this.userStarted) {
      this.userStarted = true;
      this.connections = this.options.servers.map(start);
    }
    if (project.length > 0) {
      this.projectJoined = true;
      this.connections = [...this.connections, ...project.map(start)];
    }
    await Promise.all(this.connections.map((c) => c.prepare()));
  }

  tools(): AnyTool[] {
    return this.connections.flatMap((c) => c.tools());
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.loaded;
    await Promise.all(this.connections.map((c) => c.close()));
  }

  /** The servers started so far. */
  status(): McpServerStatus[] {
    return this.connections.flatMap((c) => c.status() ?? []);
  }

  /** Told once per real change. */
  private report(): void {
    if (this.closed) return;
    const servers = this.status();
    const key = JSON.stringify(servers);
    if (key === this.reported) return;
    this.reported = key;
    this.options.onStatus?.(servers);
  }

  private async projectServers(turn: ToolSourceTurn): Promise<McpServerConfig[]> {
    const project = this.options.project;
    if (project === undefined) return [];
    return project.servers(turn.ask, turn.signal);
  }

  private load(): Promise<typeof import("./mcp-connection.ts")> {
    this.loaded ??= import("./mcp-connection.ts");
    return this.loaded;
  }
}
