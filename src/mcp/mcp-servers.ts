/**
 * The MCP servers of one runtime, as a ToolSource: nothing starts with the agent, and the SDK is
 * not even loaded until then (start-up speed); each turn's start starts the servers not running
 * yet (in parallel, each bounded by the connect timeout), and the runtime's close() stops them all.
 */

import type { AnyTool } from "../contracts/tool.ts";
import type { ToolSource } from "../contracts/tool-source.ts";
import type { McpServerStatus } from "../types/mcp-status.ts";
import type { McpServerConfig } from "./mcp-config.ts";
import type { McpConnection } from "./mcp-connection.ts";
import type { McpTimeouts } from "./mcp-timeouts.ts";
import type { TransportContext } from "./mcp-transport.ts";

export interface McpServersOptions {
  servers: readonly McpServerConfig[];
  context: TransportContext;
  timeouts: McpTimeouts;
  clientVersion: string;
  onError: (message: string) => void;
  /** The servers' states changed (one started, failed, crashed, or its tool count moved). */
  onStatus?: (servers: McpServerStatus[]) => void;
}

export class McpServers implements ToolSource {
  private connections: McpConnection[] | undefined;
  private loading: Promise<McpConnection[]> | undefined;
  private closed = false;
  private reported = "";

  constructor(private readonly options: McpServersOptions) {}

  async prepare(): Promise<void> {
    if (this.closed) return;
    const connections = await this.load();
    await Promise.all(connections.map((c) => c.prepare()));
  }

  tools(): AnyTool[] {
    return this.connections?.flatMap((c) => c.tools()) ?? [];
  }

  async close(): Promise<void> {
    this.closed = true;
    const connections = this.connections ?? (await this.loading) ?? [];
    await Promise.all(connections.map((c) => c.close()));
  }

  /** The servers started so far, told once per real change. */
  status(): McpServerStatus[] {
    return (this.connections ?? []).flatMap((c) => c.status() ?? []);
  }

  private report(): void {
    if (this.closed) return;
    const servers = this.status();
    const key = JSON.stringify(servers);
    if (key === this.reported) return;
    this.reported = key;
    this.options.onStatus?.(servers);
  }

  private load(): Promise<McpConnection[]> {
    this.loading ??= import("./mcp-connection.ts").then(({ McpConnection }) => {
      const { servers, context, timeouts, clientVersion, onError } = this.options;
      this.connections = servers.map(
        (server) =>
          new McpConnection({
            server,
            context,
            timeouts,
            clientVersion,
            onError,
            onChange: () => this.report(),
          }),
      );
      return this.connections;
    });
    return this.loading;
  }
}
